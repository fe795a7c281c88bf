import type { ChatDefinition, JsonObject, TurnTrace } from '../../index.js'

/**
 * Coverage of a definition by conversations: which routes answered, which states were visited,
 * which declared transitions fired, against everything the definition declares. Counts are exact
 * and come only from traces, so coverage measures what actually ran, not what a file claims.
 */

/** One declared thing and how often the runs exercised it. */
export interface CoverageItem { key: string; hits: number }

export interface CoverageDimension {
  declared: number
  exercised: number
  /** exercised / declared × 100; 100 when nothing is declared. */
  percent: number
  /** Every declared item in declaration order, with its hit count. */
  items: CoverageItem[]
  /** Keys never exercised, in declaration order. */
  missed: string[]
}

export interface CoverageReport {
  definitionId: string
  routes: CoverageDimension
  states: CoverageDimension
  transitions: CoverageDimension
  /** All three dimensions pooled: (routes + states + transitions exercised) / declared × 100. */
  percent: number
}

/** One run's input to coverage: where it started and the traces it produced. */
export interface CoverageRun { startState: string; traces: readonly TurnTrace[] }

/** `from --EVENT--> to`, the key of a declared transition. */
export function transitionKey(from: string, event: string, to: string): string {
  return `${from} --${event}--> ${to}`
}

/**
 * Computes coverage of `definition` by `runs`. Pure. Only `ok` traces that were not replays count:
 * a failed route committed nothing, and a replay re-served a decision without firing anything.
 * States count when a run starts in them or a trace enters or leaves them.
 */
export function computeCoverage<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, runs: readonly CoverageRun[]): CoverageReport {
  const { routes, states } = definition.conversation
  const routeHits = new Map(routes.map((route) => [route.id, 0]))
  const stateHits = new Map(Object.keys(states).map((state) => [state, 0]))
  const transitionHits = new Map<string, number>()
  const transitionByEvent = new Map<string, string>()
  for (const [from, state] of Object.entries(states)) {
    for (const [event, target] of Object.entries(state.on ?? {})) {
      const to = typeof target === 'string' ? target : target.target
      const key = transitionKey(from, event, to)
      transitionHits.set(key, 0)
      transitionByEvent.set(`${from}\u0000${event}`, key)
    }
  }
  const bump = (map: Map<string, number>, key: string | undefined): void => {
    if (key === undefined) return
    const hits = map.get(key)
    if (hits !== undefined) map.set(key, hits + 1)
  }
  for (const run of runs) {
    bump(stateHits, run.startState)
    for (const trace of run.traces) {
      if (trace.outcome !== 'ok' || trace.replayed) continue
      bump(routeHits, trace.routeId)
      if (trace.toState !== trace.fromState) bump(stateHits, trace.toState)
      if (trace.event !== undefined) bump(transitionHits, transitionByEvent.get(`${trace.fromState}\u0000${trace.event}`))
    }
  }
  const dimensions = { routes: dimension(routeHits), states: dimension(stateHits), transitions: dimension(transitionHits) }
  const declared = dimensions.routes.declared + dimensions.states.declared + dimensions.transitions.declared
  const exercised = dimensions.routes.exercised + dimensions.states.exercised + dimensions.transitions.exercised
  return { definitionId: definition.id, ...dimensions, percent: percentOf(exercised, declared) }
}

function dimension(hits: ReadonlyMap<string, number>): CoverageDimension {
  const items = [...hits].map(([key, count]) => ({ key, hits: count }))
  const exercised = items.filter((item) => item.hits > 0).length
  return { declared: items.length, exercised, percent: percentOf(exercised, items.length), items, missed: items.filter((item) => item.hits === 0).map((item) => item.key) }
}

function percentOf(part: number, whole: number): number {
  return whole === 0 ? 100 : (part / whole) * 100
}

/** Formats a percentage for reports: one decimal, no trailing `.0`. */
export function formatPercent(percent: number): string {
  const rounded = Math.floor(percent * 10) / 10
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`
}

/** The text block `chatrail test --coverage` prints for one definition. */
export function formatCoverage(report: CoverageReport): string {
  const line = (name: string, d: CoverageDimension): string => `  ${name.padEnd(12)} ${String(d.exercised).padStart(3)}/${String(d.declared).padEnd(3)} ${formatPercent(d.percent)}`
  const lines = [
    `coverage of ${report.definitionId}: ${formatPercent(report.percent)}`,
    line('routes', report.routes),
    line('states', report.states),
    line('transitions', report.transitions),
  ]
  const missed = [
    ...report.routes.missed.map((key) => `    route       ${key}`),
    ...report.states.missed.map((key) => `    state       ${key}`),
    ...report.transitions.missed.map((key) => `    transition  ${key}`),
  ]
  if (missed.length > 0) lines.push('  never exercised:', ...missed)
  return lines.join('\n')
}

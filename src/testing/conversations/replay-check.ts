import type { JsonObject, SessionSnapshot, TurnTrace } from '../../index.js'
import { deepEqual, show } from '../context-match.js'
import type { ReplayMismatch, TurnResult } from './run-result.js'

/**
 * The comparisons behind the replay check. A deterministic turn must come out the same when it is
 * regenerated in place (served from the decision cache: flagged `replayed`, no route callback, no
 * model call) and when the whole conversation runs again from scratch under a shifted wall clock
 * (the route runs again and must produce the same reply, trace and context). Pure.
 */

const comparedTraceFields = ['kind', 'outcome', 'routeId', 'event', 'fromState', 'toState', 'reason', 'errorClass'] as const

/** The turns the replay check looks at: deterministic, ok, decided afresh. */
export function isReplayCheckable(turn: Pick<TurnResult, 'trace' | 'step'>): boolean {
  const trace = turn.trace
  return trace !== undefined && trace.kind === 'deterministic' && trace.outcome === 'ok' && !trace.replayed && !('stop' in turn.step)
}

/** `trace.toState: "menu" ≠ "idle"` lines for the decision fields of two traces. */
export function traceDifferences(expected: TurnTrace | undefined, actual: TurnTrace | undefined): string[] {
  if (expected === undefined || actual === undefined) {
    return expected === actual ? [] : [`trace: ${expected === undefined ? 'none' : 'one'} ≠ ${actual === undefined ? 'none' : 'one'}`]
  }
  return comparedTraceFields
    .filter((field) => expected[field] !== actual[field])
    .map((field) => `trace.${field}: ${show(expected[field])} ≠ ${show(actual[field])}`)
}

function snapshotDifferences(expected: SessionSnapshot<JsonObject>, actual: SessionSnapshot<JsonObject>): string[] {
  const differences: string[] = []
  if (expected.state !== actual.state) differences.push(`state: ${show(expected.state)} ≠ ${show(actual.state)}`)
  if (!deepEqual(expected.context, actual.context)) differences.push(`context: ${show(expected.context)} ≠ ${show(actual.context)}`)
  return differences
}

/** What an in-place `regenerate()` of `turn` must reproduce. */
export interface RegenerateObservation {
  trace: TurnTrace | undefined
  reply: string
  modelCalls: number
  snapshot: SessionSnapshot<JsonObject>
}

export function regenerateMismatch(turn: TurnResult, observed: RegenerateObservation): ReplayMismatch | undefined {
  const differences: string[] = []
  if (observed.trace === undefined) differences.push('regenerate produced no trace')
  else {
    if (!observed.trace.replayed) differences.push('trace.replayed: true ≠ false (the decision was not served from the cache; the route ran again)')
    differences.push(...traceDifferences(turn.trace, observed.trace))
  }
  if (observed.reply !== turn.reply) differences.push(`reply: ${show(turn.reply)} ≠ ${show(observed.reply)}`)
  if (observed.modelCalls > 0) differences.push(`model calls: 0 ≠ ${observed.modelCalls}`)
  differences.push(...snapshotDifferences(turn.snapshot, observed.snapshot))
  return differences.length === 0 ? undefined : { turn: turn.number, label: turn.label, check: 'regenerate', differences }
}

/** Compares the checkable turns of the first run with the same turns of the re-run. */
export function rerunMismatches(original: readonly TurnResult[], rerun: readonly TurnResult[]): ReplayMismatch[] {
  const mismatches: ReplayMismatch[] = []
  for (const turn of original) {
    if (!isReplayCheckable(turn)) continue
    const again = rerun[turn.number - 1]
    if (again === undefined) {
      mismatches.push({ turn: turn.number, label: turn.label, check: 'rerun', differences: ['the re-run ended before this turn'] })
      continue
    }
    const differences = [
      ...(turn.reply === again.reply ? [] : [`reply: ${show(turn.reply)} ≠ ${show(again.reply)}`]),
      ...traceDifferences(turn.trace, again.trace),
      ...snapshotDifferences(turn.snapshot, again.snapshot),
    ]
    if (differences.length > 0) mismatches.push({ turn: turn.number, label: turn.label, check: 'rerun', differences })
  }
  return mismatches
}

/** `turn 2 (user "/time"), rerun: reply: "09:00" ≠ "10:01"` blocks for reports. */
export function formatReplayMismatch(mismatch: ReplayMismatch): string {
  const how = mismatch.check === 'regenerate' ? 'regenerated in place' : 're-run under a shifted clock'
  return [`turn ${mismatch.turn} (${mismatch.label}) changed when ${how}:`, ...mismatch.differences.map((line) => `  ${line}`)].join('\n')
}

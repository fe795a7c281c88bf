import type { ChatDefinition } from './definition.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import { compileMachine, step, type Machine, type MachineState } from './machine.js'
import { commandKey, textKey } from './normalize.js'
import type { Route, RouteContext, RouteMatch } from './routes.js'

/**
 * "Why did (or didn't) my route fire?" (issue 19 item 5): every route of a definition, in
 * declaration order, checked against one input in one state the way `decide.ts` checks them —
 * states, declared event, match, guard, transition guard — with the first reason that rules it
 * out. Unlike a turn, the scan does not stop at the first match: every route is explained, and a
 * route that would also match says which earlier route takes the input (`shadowedBy`).
 *
 * It runs the routes' `match` callbacks, guards and transition guards (which must be pure, as for
 * a turn), never a `response` or `assign`. Loaded lazily by `session.explain`, so the `chatrail`
 * entry does not carry it.
 */

/** Why a route did not fire (`state`, `event`, `guard`, `no-match`), or that it matched. */
export type ExplainReason = 'state' | 'event' | 'guard' | 'no-match' | 'matched'

export interface RouteExplanation {
  readonly routeId: string
  /**
   * The route takes this input in this state: it fires (reason `matched`), or it stops the scan with
   * a refusal as a turn does (reason `guard`: it answers its `refuse` re-prompt, or the turn fails).
   */
  readonly matched: boolean
  readonly reason: ExplainReason
  /** The reason in words: `"idle" does not declare "refund"`, `its guard returned false`, … */
  readonly detail: string
  /** A matching route after the one that wins: the id of the route that takes the input first. */
  readonly shadowedBy?: string
}

/** Typed text, or a UI event (a button click) as `sendUiEvent` sends it. */
export type ExplainInput = string | { readonly uiEvent: string; readonly text?: string }

const machines = new WeakMap<object, Machine<JsonObject>>()

function machineOf<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>): Machine<Ctx> {
  let machine = machines.get(definition) as Machine<Ctx> | undefined
  if (!machine) {
    machine = compileMachine(definition.conversation)
    machines.set(definition, machine as unknown as Machine<JsonObject>)
  }
  return machine
}

const quoted = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ')
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * Explains every route of `definition` for `input` in `at` (a state and its context). One entry per
 * route, in declaration order. Resolves once every async `match` has.
 */
export async function explainRoutes<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  at: MachineState<Ctx>,
  input: ExplainInput,
): Promise<RouteExplanation[]> {
  const machine = machineOf(definition)
  const text = typeof input === 'string' ? input : (input.text ?? input.uiEvent)
  const uiEvent = typeof input === 'string' ? undefined : input.uiEvent
  const declared = machine.states.get(at.state)?.transitions
  const ctx: RouteContext<Ctx> = {
    input: text,
    uiEvent,
    state: at.state,
    context: at.context,
    history: [],
    sessionId: 'explain',
    messageId: undefined,
    turnId: 'explain',
    // Never aborted: explaining is not a turn, nothing can stop it.
    signal: new AbortController().signal,
  }

  async function explain(route: Route<Ctx>): Promise<Omit<RouteExplanation, 'routeId' | 'shadowedBy'>> {
    if (route.states && !route.states.includes(at.state)) return { matched: false, reason: 'state', detail: `fires only in ${quoted(route.states)}` }
    if (route.event !== undefined && !declared?.has(route.event)) return { matched: false, reason: 'event', detail: `"${at.state}" does not declare its event "${route.event}"` }
    let routeCtx = ctx
    if (uiEvent !== undefined && route.kind !== 'event' && route.kind !== 'custom') {
      return { matched: false, reason: 'no-match', detail: 'a UI event is matched by event and custom routes only' }
    }
    switch (route.kind) {
      case 'command':
        if (commandKey(text, route) !== commandKey(route.command, route)) return { matched: false, reason: 'no-match', detail: `the command is ${JSON.stringify(route.command)}` }
        break
      case 'text':
        if (!route.texts.some((t) => textKey(t) === textKey(text))) return { matched: false, reason: 'no-match', detail: `the texts are ${route.texts.map((t) => JSON.stringify(t)).join(', ')}` }
        break
      case 'event':
        if (uiEvent !== route.uiEvent) return { matched: false, reason: 'no-match', detail: `needs the UI event "${route.uiEvent}"${uiEvent === undefined ? ' (typed text never matches it)' : ''}` }
        break
      case 'pattern': {
        const result = route.pattern.exec(text)
        if (!result) return { matched: false, reason: 'no-match', detail: `the pattern ${String(route.pattern)} does not match` }
        const groups: Record<string, string> = {}
        for (const [name, value] of Object.entries(result.groups ?? {})) if (value !== undefined) groups[name] = value
        const match: RouteMatch = { value: result[0], index: result.index, groups }
        routeCtx = { ...ctx, match }
        break
      }
      case 'custom': {
        let matched: boolean | Promise<boolean>
        try {
          matched = route.match(text, ctx)
          if (isPromise<boolean>(matched)) {
            // Bounded as in a turn (decide.ts; not imported: this chunk would pull it out of the entry's).
            const ms = route.routeTimeoutMs ?? definition.conversation.routeTimeoutMs ?? 30_000
            let timer: ReturnType<typeof setTimeout> | undefined
            const limit = new Promise<'timeout'>((resolve) => (timer = setTimeout(resolve, ms, 'timeout')))
            const settled = await Promise.race([matched, limit]).finally(() => clearTimeout(timer))
            if (settled === 'timeout') return { matched: false, reason: 'no-match', detail: `its match function timed out (routeTimeoutMs ${ms})` }
            matched = settled
          }
        } catch (error) {
          return { matched: false, reason: 'no-match', detail: `its match function threw: ${message(error)}` }
        }
        if (matched !== true) return { matched: false, reason: 'no-match', detail: 'its match function returned false' }
        break
      }
    }
    // As in a turn: a refused guard with a `refuse`, a guard that throws and a refused transition stop the scan at this route.
    const reprompt = ', so it answers its re-prompt (`refuse`)'
    if (route.guard) {
      try {
        if (route.guard(routeCtx) !== true) return { matched: route.refuse !== undefined, reason: 'guard', detail: `its guard returned false${route.refuse === undefined ? '' : reprompt}` }
      } catch (error) {
        return { matched: true, reason: 'guard', detail: `its guard threw: ${message(error)}, so the turn fails` }
      }
    }
    if (route.event !== undefined) {
      const refusal = step(machine, at, route.event)[1][0]
      if (refusal?.type === 'refuse') return { matched: true, reason: 'guard', detail: `the transition's guard refused "${route.event}" (${refusal.reason})${route.refuse === undefined ? ', so the turn fails (transition refused)' : reprompt}` }
    }
    return { matched: true, reason: 'matched', detail: route.event === undefined ? (route.restart ? 'starts over' : 'answers without a transition') : `fires "${route.event}" → "${declared?.get(route.event)?.target ?? at.state}"` }
  }

  const entries: RouteExplanation[] = []
  let winner: string | undefined
  for (const route of definition.conversation.routes) {
    const entry = await explain(route)
    entries.push({ routeId: route.id, ...entry, ...(entry.matched && winner !== undefined ? { shadowedBy: winner } : {}) })
    if (entry.matched) winner ??= route.id
  }
  return entries
}

/** One line per route: `✓` the route that takes the input, `·` the others, each with its reason. */
export function formatRouteLines(entries: readonly RouteExplanation[]): string[] {
  const winner = entries.find((entry) => entry.matched && entry.shadowedBy === undefined)
  const width = Math.max(0, ...entries.map((entry) => entry.routeId.length))
  if (entries.length === 0) return ['  (the definition has no routes)']
  return entries.map((entry) => {
    const why = entry.shadowedBy === undefined ? entry.detail : `${entry.detail}, but "${entry.shadowedBy}" comes first`
    return `  ${entry === winner ? '✓' : '·'} ${entry.routeId.padEnd(width)}  ${entry.reason.padEnd(8)}  ${why}`
  })
}

/** `"/refund 4" in state "idle"`, or `UI event "confirm" in state "idle"`. */
export function describeInput(input: ExplainInput, state: string): string {
  return `${typeof input === 'string' ? JSON.stringify(input) : `UI event "${input.uiEvent}"`} in state "${state}"`
}

/** The explanation as text: a heading naming the input, the state and who answers, then {@link formatRouteLines}. */
export function formatExplanation(entries: readonly RouteExplanation[], state: string, input: ExplainInput): string {
  const winner = entries.find((entry) => entry.matched && entry.shadowedBy === undefined)
  return [`${describeInput(input, state)}: ${winner ? `route "${winner.routeId}" answers` : 'no route matched'}`, ...formatRouteLines(entries)].join('\n')
}

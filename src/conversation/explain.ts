import type { Resolution, resolveRoutes } from './decide.js'
import type { ChatDefinition } from './definition.js'
import type { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import type { advance, compileMachine, Machine, MachineState } from './machine.js'
import type { commandKey, textKey } from './normalize.js'
import type { buildRouteIndex, RouteIndex } from './route-index.js'
import { routeFailureMessage } from './route-failure.js'
import type { Route, RouteContext, RouteMatch } from './routes.js'
import type { TurnOutcome } from './trace.js'

/**
 * "Why did (or didn't) my route fire?" (issue 19 item 5): every route of a definition, in
 * declaration order, checked against one input in one state the way `decide.ts` checks them —
 * states, declared event, match, guard, transition guard — with the first reason that rules it
 * out. Unlike a turn, the scan does not stop at the first match: every route is explained, and a
 * route that would also match says which earlier route takes the input (`shadowedBy`).
 *
 * Who answers, and how (`explainTurn`), is not re-implemented here: it is the session's own
 * decision (`resolveRoutes` in decide.ts, with form slots and stale UI events) run over inert copies
 * of the routes (their `response`, `refuse` and pattern `assign` replaced by nothing), so a form
 * filling a slot, a re-prompt, a restart or a stale UI event is explained as the turn decides it and
 * the two cannot drift (test/conversation/explain-decides.property.test.ts). The session hands its
 * decision functions in (`Decider`); explain-turn.ts does the same for the CLI and the testing kit.
 *
 * It runs the routes' `match` callbacks, guards and transition guards (which must be pure, as for
 * a turn), and in a form state the slot's `validate` and the form's text functions (synchronous and
 * pure), never a route's `response`, `refuse` or `assign`. Loaded lazily by `session.explain`, so
 * the `chatrail` entry does not carry it.
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

/** What the turn does with the input, as the session decides it (the first entry of `kind` that applies). */
export type ExplainedKind =
  | 'route' // a route fires (its transition, or a reply-only answer)
  | 'restart' // a `restart` route starts over
  | 'refused' // a route's `refuse` re-prompt answers (its guard or its transition refused)
  | 'slot-filled' // no route: the state's form stores the answer and asks the next slot
  | 'form-complete' // no route: the form stores its last slot and fires `done`
  | 'invalid-slot' // no route: the form re-prompts an invalid answer
  | 'form-exhausted' // no route: the slot ran out of attempts, the form fires `exhausted`
  | 'unavailable' // no route: a UI event some route knows, not in this state
  | 'agent' // no route, no form: the agent (or the fallback) answers
  | 'error' // a route (or the form) fails: the turn is an error, nothing changes
  | 'timeout' // an async match ran past `routeTimeoutMs`: the fallback answers

export interface ExplainedTurn {
  readonly kind: ExplainedKind
  /** The route that answers (or fails, or times out); absent for form, stale-event and agent turns. */
  readonly routeId?: string
  /** The machine event the turn fires (for an error or a timeout: the route's, which it does not fire), as the trace says it. */
  readonly event?: string
  /** The state after the turn (unchanged for the agent: it may propose a transition itself). */
  readonly toState: string
  /** The trace outcome the turn records; absent for the agent's turn (the agent decides it). */
  readonly outcome?: TurnOutcome
  /** The trace `reason` the turn records (`slot-filled`, `guard-refused`, `restart`, …). */
  readonly reason?: string
  /** The slot a form turn answers. */
  readonly slot?: string
  /** The outcome in words, after "no route matched" or the route. */
  readonly detail: string
}

/** Who answers `input` in `state` and how (`outcome`), and why each route did or did not take it (`routes`). */
export interface Explanation {
  readonly state: string
  readonly input: ExplainInput
  readonly outcome: ExplainedTurn
  readonly routes: RouteExplanation[]
}

/**
 * The session's code, handed in rather than imported: the session passes the functions its turns run
 * (explain-decider.ts), and explain-turn.ts the same ones for the CLI and the testing kit. A lazy
 * module that imports the entry's modules splits them out of the entry's chunk into shared chunks,
 * each a gzip stream of its own (+0.6 kB gzip for the decision code; issue 32: +0.3 kB more for the
 * machine and the key normalization), paid by every app, explaining or not.
 */
export interface Decider {
  readonly resolveRoutes: typeof resolveRoutes
  readonly buildRouteIndex: typeof buildRouteIndex
  readonly compileMachine: typeof compileMachine
  readonly advance: typeof advance
  readonly commandKey: typeof commandKey
  readonly textKey: typeof textKey
  readonly isPromise: typeof isPromise
  /** `FORM_ATTEMPTS` (machine.ts): the context key of a form slot's attempt count. */
  readonly formAttempts: string
}

interface Compiled<Ctx extends JsonObject> {
  machine: Machine<Ctx>
  /** The routes made inert (see the header), indexed as a session indexes them. */
  inert: RouteIndex<Ctx>
}

const compiled = new WeakMap<object, Compiled<JsonObject>>()
const machines = new WeakMap<object, Machine<JsonObject>>()

/** The route with nothing that answers: the decision (match, guards, transition) stays the route's own. */
function inert<Ctx extends JsonObject>(route: Route<Ctx>): Route<Ctx> {
  return { ...route, response: '', ...(route.refuse === undefined ? {} : { refuse: '' }), ...(route.kind === 'pattern' ? { assign: undefined } : {}) } as Route<Ctx>
}

function machineOf<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, decider: Decider): Machine<Ctx> {
  let machine = machines.get(definition) as Machine<Ctx> | undefined
  if (!machine) {
    machine = decider.compileMachine(definition.conversation)
    machines.set(definition, machine as unknown as Machine<JsonObject>)
  }
  return machine
}

function compiledOf<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, decider: Decider): Compiled<Ctx> {
  let found = compiled.get(definition) as Compiled<Ctx> | undefined
  if (!found) {
    found = { machine: machineOf(definition, decider), inert: decider.buildRouteIndex(definition.conversation.routes.map(inert)) }
    compiled.set(definition, found as unknown as Compiled<JsonObject>)
  }
  return found
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
  decider: Decider,
): Promise<RouteExplanation[]> {
  const { advance, commandKey, textKey, isPromise } = decider
  const machine = machineOf(definition, decider)
  const ctx = explainContext(at, input)
  const text = ctx.input
  const uiEvent = ctx.uiEvent
  const declared = machine.states.get(at.state)?.transitions

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
      const refusal = advance(machine, at, route.event)
      if ('type' in refusal) return { matched: true, reason: 'guard', detail: `the transition's guard refused "${route.event}" (${refusal.reason})${route.refuse === undefined ? ', so the turn fails (transition refused)' : reprompt}` }
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

/** The turn's context as route callbacks see it while explaining: no history, never aborted. */
function explainContext<Ctx extends JsonObject>(at: MachineState<Ctx>, input: ExplainInput): RouteContext<Ctx> {
  return {
    input: typeof input === 'string' ? input : (input.text ?? input.uiEvent),
    uiEvent: typeof input === 'string' ? undefined : input.uiEvent,
    state: at.state,
    context: at.context,
    history: [],
    sessionId: 'explain',
    messageId: undefined,
    turnId: 'explain',
    // Never aborted: explaining is not a turn, nothing can stop it.
    signal: new AbortController().signal,
  }
}

/**
 * What the session's turn would do with `input` in `at`: the session's own decision
 * (`resolveRoutes`) over the inert routes, described. Resolves once every async `match` has (each
 * bounded by its `routeTimeoutMs`, as in a turn).
 */
export async function decideTurn<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, input: ExplainInput, decider: Decider): Promise<ExplainedTurn> {
  const { machine, inert: index } = compiledOf(definition, decider)
  const resolution = await decider.resolveRoutes(machine, index, explainContext(at, input), at, definition.conversation)
  return describeResolution(machine, definition, at, resolution, decider.formAttempts)
}

/** `explainRoutes` and `decideTurn` together: who answers and why every route did or did not. */
export async function explainTurn<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, input: ExplainInput, decider: Decider): Promise<Explanation> {
  const [outcome, routes] = await Promise.all([decideTurn(definition, at, input, decider), explainRoutes(definition, at, input, decider)])
  return { state: at.state, input, outcome, routes }
}

function describeResolution<Ctx extends JsonObject>(machine: Machine<Ctx>, definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, resolution: Resolution<Ctx>, formAttempts: string): ExplainedTurn {
  const arrow = (event: string | undefined, to: string): string => (event === undefined ? '' : ` and fires "${event}" → "${to}"`)
  switch (resolution.type) {
    case 'miss':
      return { kind: 'agent', toState: at.state, detail: 'the agent answers' }
    case 'timeout': {
      const ms = resolution.route.routeTimeoutMs ?? definition.conversation.routeTimeoutMs ?? 30_000
      return { kind: 'timeout', routeId: resolution.route.id, ...(resolution.route.event === undefined ? {} : { event: resolution.route.event }), toState: at.state, outcome: 'timeout', reason: `route-timeout:${resolution.route.id}`, detail: `its match function runs past routeTimeoutMs (${ms} ms): the fallback answers, nothing changes` }
    }
    case 'failed':
      return { ...(resolution.route ? { routeId: resolution.route.id } : {}), ...(resolution.route?.event === undefined ? {} : { event: resolution.route.event }), kind: 'error', toState: at.state, outcome: 'error', reason: resolution.reason, detail: `the turn fails (${resolution.reason}): ${routeFailureMessage(resolution)}` }
    case 'match':
      break
  }
  const { route, event, after, reason } = resolution
  const base = { ...(event === undefined ? {} : { event }), toState: after.state, ...(reason === undefined ? {} : { reason }) }
  if (route) {
    if (resolution.outcome === 'refused') return { ...base, kind: 'refused', routeId: route.id, outcome: 'refused', detail: `it answers its re-prompt (\`refuse\`): ${reason === 'guard-refused' ? 'its guard returned false' : `the machine refused "${route.event ?? ''}" (${reason ?? ''})`}, nothing changes` }
    if (resolution.restart) return { ...base, kind: 'restart', routeId: route.id, outcome: 'ok', detail: `it starts over: back to "${after.state}" with the definition's context` }
    return { ...base, kind: 'route', routeId: route.id, outcome: 'ok', detail: event === undefined ? 'it answers without a transition' : `it fires "${event}" → "${after.state}"` }
  }
  if (resolution.outcome === 'unavailable') return { ...base, kind: 'unavailable', outcome: 'unavailable', detail: 'a route knows this UI event, but not in this state: conversation.unavailable answers, nothing changes' }
  const form = machine.states.get(at.state)?.form
  const slot = form && Object.keys(form.slots).find((name) => at.context[name] === undefined)
  const named = slot === undefined ? {} : { slot }
  const attempts = typeof at.context[formAttempts] === 'number' ? at.context[formAttempts] : 0
  switch (reason) {
    case 'slot-filled':
      return { ...base, ...named, kind: 'slot-filled', outcome: 'ok', detail: `the form of "${at.state}" takes it as slot "${slot ?? ''}" and asks the next slot` }
    case 'form-complete':
      return { ...base, ...named, kind: 'form-complete', outcome: 'ok', detail: `the form of "${at.state}" takes it as its last slot "${slot ?? ''}"${arrow(event, after.state)}` }
    case 'form-exhausted':
      return { ...base, ...named, kind: 'form-exhausted', outcome: 'ok', detail: `it is not a valid answer for slot "${slot ?? ''}", the last of its attempts (${attempts + 1})${arrow(event, after.state)}` }
    default:
      return { ...base, ...named, kind: 'invalid-slot', outcome: 'refused', detail: `it is not a valid answer for slot "${slot ?? ''}" of the form of "${at.state}": the form re-prompts (attempt ${attempts + 1})` }
  }
}

/** `no route matched; …` or `route "x" answers`: the heading's verdict, as the turn decides it. */
export function describeOutcome(outcome: ExplainedTurn): string {
  if (outcome.routeId !== undefined && (outcome.kind === 'route' || outcome.kind === 'restart')) return `route "${outcome.routeId}" answers${outcome.kind === 'restart' ? ' (it starts over)' : ''}`
  if (outcome.routeId !== undefined) return `route "${outcome.routeId}" takes it: ${outcome.detail}`
  return `no route matched; ${outcome.detail}`
}

/** The explanation as text: a heading naming the input, the state and what the turn does, then one line per route. */
export function formatTurnExplanation(explanation: Explanation): string {
  const { outcome } = explanation
  return [`${describeInput(explanation.input, explanation.state)}: ${describeOutcome(outcome)}`, ...formatRouteLines(explanation.routes, outcome.routeId ?? null)].join('\n')
}

/**
 * One line per route: `✓` the route that takes the input, `·` the others, each with its reason.
 * `winner`: the route the turn's decision names (`null`: none), when known; else the first match.
 */
export function formatRouteLines(entries: readonly RouteExplanation[], winnerId?: string | null): string[] {
  const winner = winnerId === undefined ? entries.find((entry) => entry.matched && entry.shadowedBy === undefined) : entries.find((entry) => entry.routeId === winnerId)
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

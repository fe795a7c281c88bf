import type { AdapterRequest } from '../contract/adapter.js'
import type { Message } from '../contract/message.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import type { ConversationDefinition } from './definition.js'
import { entryPrompt, resolveForm, textChunks } from './form.js'
import { advance, assignContext, type Machine, type MachineState } from './machine.js'
import type { RouteIndex } from './route-index.js'
import { normalizeOutput, type NormalizedOutput } from './route-output.js'
import { failed, type Resolution, type TurnContext } from './resolution.js'
import type { Route, RouteContext, RouteMatch } from './routes.js'
import { loadRouteWait } from './load-route-wait.js'
import { uiEventOf } from './ui-events.js'

/**
 * Decide: which route answers a user message. Routes are tried in declaration order; a route is
 * eligible when its `states` include the current state, the current state declares its event (a
 * reply-only or restart route has none), it matches, and its guard passes; the first eligible
 * route fires. Firing asks the machine for the transition first (a refusal fails the route, or
 * answers its `refuse` re-prompt, before its response runs), then runs the response. When no
 * route fires, a form state takes the message as a slot answer (form.ts), and a UI event some
 * route knows but this state does not take answers `unavailable`. Async callbacks are bounded by
 * `routeTimeoutMs`. Nothing here changes state: the result is data the session applies.
 */

/** Where a turn's `ctx.signal` comes from: asked on first read (most turns never read it). */
export interface SignalSource {
  signal(): AbortSignal
}

/** Where a lazy context keeps the request whose `messages` its `history` reads (not enumerable). */
const REQUEST = Symbol('chatrail.request')

/**
 * `history` over a long request (see `turnContext`): an own enumerable accessor, one pair shared by
 * every context (a closure per context would give each its own hidden class), so spreading,
 * `Object.keys` and `JSON` see `history` as on a plain object, and its array is built only if read.
 */
const historyAccessor: PropertyDescriptor = {
  get(this: { [REQUEST]: Pick<AdapterRequest, 'messages'> }): readonly Message[] {
    return this[REQUEST].messages
  },
  enumerable: true,
  configurable: true,
}

/**
 * What route callbacks see. A class, not a literal: `signal` is a getter on the prototype, so a
 * turn builds its context without a closure or an accessor pair (the hot path of every turn).
 * Its own keys are a plain context's, in the same order: `input` … `history` … `match`.
 */
class RouteCtx<Ctx extends JsonObject> implements RouteContext<Ctx> {
  declare readonly input: string
  declare readonly uiEvent: string | undefined
  declare readonly state: string
  declare readonly context: Readonly<Ctx>
  declare readonly history: readonly Message[]
  declare readonly sessionId: string
  declare readonly messageId: string | undefined
  declare readonly turnId: string
  declare readonly match?: RouteMatch
  readonly #source: SignalSource
  readonly #history: HistorySource
  readonly #confirmations: ActionConfirmationCoordinator | undefined

  constructor(
    input: string,
    uiEvent: string | undefined,
    state: string,
    context: Readonly<Ctx>,
    history: HistorySource,
    sessionId: string,
    messageId: string | undefined,
    turnId: string,
    source: SignalSource,
    match?: RouteMatch,
    confirmations?: ActionConfirmationCoordinator,
  ) {
    const self = this as { -readonly [K in keyof RouteContext<Ctx>]: RouteContext<Ctx>[K] } & { [REQUEST]?: Pick<AdapterRequest, 'messages'> }
    self.input = input
    self.uiEvent = uiEvent
    self.state = state
    self.context = context
    if (Array.isArray(history)) self.history = history as readonly Message[]
    else {
      Object.defineProperty(self, REQUEST, { value: history })
      Object.defineProperty(self, 'history', historyAccessor)
    }
    self.sessionId = sessionId
    self.messageId = messageId
    self.turnId = turnId
    self.match = match
    this.#source = source
    this.#history = history
    this.#confirmations = confirmations
  }

  get signal(): AbortSignal {
    return this.#source.signal()
  }

  /** On the prototype, like `signal`: not an own key (a plain context's keys stay as they were). */
  get confirmations(): ActionConfirmationCoordinator | undefined {
    return this.#confirmations
  }

  /** The same turn, with a pattern's match. */
  static withMatch<Ctx extends JsonObject>(ctx: TurnContext<Ctx>, match: RouteMatch): RouteContext<Ctx> {
    if (!(ctx instanceof RouteCtx)) return { ...ctx, signal: ctx.signal, match }
    const c = ctx as RouteCtx<Ctx>
    return new RouteCtx(c.input, c.uiEvent, c.state, c.context, c.#history, c.sessionId, c.messageId, c.turnId, c.#source, match, c.#confirmations)
  }
}

/** A turn's history: an array, or the request whose `messages` are read when a callback asks. */
export type HistorySource = readonly Message[] | Pick<AdapterRequest, 'messages'>

/**
 * The turn as route callbacks (and the fallback answer) see it; `message` is the last user message.
 * `history` is the request's `messages`, read when a callback asks (a long request builds its
 * array only then); `signal` is a getter on the prototype, which a spread leaves out.
 */
export function turnContext<Ctx extends JsonObject>(
  message: Message | undefined,
  before: MachineState<Ctx>,
  history: HistorySource,
  sessionId: string,
  turnId: string,
  source: SignalSource,
  confirmations?: ActionConfirmationCoordinator,
): TurnContext<Ctx> {
  return new RouteCtx(message?.content ?? '', message && uiEventOf(message), before.state, before.context, history, sessionId, message?.id, turnId, source, undefined, confirmations)
}

export const MISS = Object.freeze({ type: 'miss' as const })
/** What a bounded callback resolves to once its route's time is up (or the turn stopped). */
const TIMED_OUT = Symbol('timeout')
export const UNAVAILABLE_MESSAGE = 'That option is no longer available.'

function matchOf(result: RegExpExecArray): RouteMatch {
  const groups: Record<string, string> = {}
  for (const [name, value] of Object.entries(result.groups ?? {})) if (value !== undefined) groups[name] = value
  return Object.freeze({ value: result[0], index: result.index, groups: Object.freeze(groups) })
}

/** A route's output as chunks and patch; the output is the route's code too (getters, proxies): read once, here, guarded. */
function read<Ctx extends JsonObject>(route: Route<Ctx>, result: unknown): NormalizedOutput<Ctx> | Resolution<Ctx> {
  try {
    return normalizeOutput<Ctx>(result) ?? failed(route, 'invalid-output')
  } catch (error) {
    return failed(route, 'response-threw', error)
  }
}

/** What the turn hears while routes resolve: which route it waits for (its trace on a stop), and a timeout (it aborts `ctx.signal`). */
export interface ResolveHooks<Ctx extends JsonObject> {
  waiting: (route: Route<Ctx>) => void
  timedOut: () => void
}

/** What the conversation says about resolving (its timeout and stale-event answer). */
export type { Answer, Resolution, TurnContext } from './resolution.js'

export type ResolveSettings = Pick<ConversationDefinition, 'routeTimeoutMs' | 'unavailable'>

/** No route fired: a form slot answer, a stale UI event, or the agent's turn. */
function unmatched<Ctx extends JsonObject>(machine: Machine<Ctx>, index: RouteIndex<Ctx>, ctx: TurnContext<Ctx>, before: MachineState<Ctx>, settings: ResolveSettings): Resolution<Ctx> {
  const form = resolveForm(machine, before, ctx)
  if (form) return form
  if (ctx.uiEvent !== undefined && index.knows(ctx.uiEvent)) {
    return { type: 'match', route: undefined, event: undefined, after: before, assign: undefined, chunks: textChunks(settings.unavailable ?? UNAVAILABLE_MESSAGE), outcome: 'unavailable', reason: 'stale-ui-event' }
  }
  return MISS
}

/**
 * True when only the agent can answer: typed text (no UI event) whose `candidates` (the route
 * index's for it) are none, in a state without a form. `resolveRoutes` would answer `miss`; the
 * turn skips building its context.
 */
export function plainMiss<Ctx extends JsonObject>(machine: Machine<Ctx>, candidates: readonly number[], uiEvent: string | undefined, state: string): boolean {
  return uiEvent === undefined && candidates.length === 0 && machine.states.get(state)?.form === undefined
}

/**
 * Resolves one user message (`ctx`, decided from `before`) against the route table. Sync when every
 * callback it runs is. The steps are closures over this one resolution: a scan resumes after an
 * async `match` or a refused guard from where it stopped.
 */
export function resolveRoutes<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  index: RouteIndex<Ctx>,
  ctx: TurnContext<Ctx>,
  before: MachineState<Ctx>,
  settings: ResolveSettings = {},
  hooks?: ResolveHooks<Ctx>,
  // The index's candidates for `ctx`, when the caller looked them up already.
  candidates: readonly number[] = index.candidates(ctx.input, ctx.uiEvent),
): Resolution<Ctx> | Promise<Resolution<Ctx>> {
  // No route can match (the agentic fallthrough's common case): skip building the scan's closures.
  if (candidates.length === 0) return unmatched(machine, index, ctx, before, settings)
  const state = before.state
  const declared = machine.states.get(state)?.transitions

  /**
   * The route's promise, bounded by its `routeTimeoutMs` (a timeout aborts `ctx.signal`, through the
   * hooks). The timer is route-wait.ts's, loaded by the first callback that returns a promise (a
   * synchronous route table never loads it); the caller awaits anyway.
   */
  function bounded<T>(promise: Promise<T>, route: Route<Ctx>): Promise<T | typeof TIMED_OUT> {
    hooks?.waiting(route)
    // Handled now: a callback that rejects while the module loads is no unhandled rejection (the race below still sees it).
    promise.then(undefined, () => undefined)
    return loadRouteWait().then((wait) => wait.within(promise, route, settings, ctx.signal, () => hooks?.timedOut(), TIMED_OUT))
  }

  /** Runs a responder (`response` or `refuse`), sync or async, and hands its output to `then`. */
  function respond(route: Route<Ctx>, response: unknown, routeCtx: RouteContext<Ctx>, then: (result: unknown) => Resolution<Ctx>): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    if (typeof response !== 'function') return then(response)
    let result: unknown
    try {
      result = (response as (input: string, ctx: RouteContext<Ctx>) => unknown)(routeCtx.input, routeCtx)
    } catch (error) {
      return failed(route, 'response-threw', error)
    }
    if (!isPromise(result)) return then(result)
    return bounded(result, route).then((value) => (value === TIMED_OUT ? { type: 'timeout', route } : then(value)), (error: unknown) => failed(route, 'response-threw', error))
  }

  function scan(from: number): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    for (let c = from; c < candidates.length; c++) {
      const position = candidates[c] as number
      const route = index.routes[position] as Route<Ctx>
      const states = index.stateSets[position]
      if (states && !states.has(state)) continue
      if (route.event !== undefined && !declared?.has(route.event)) continue
      if (route.kind === 'pattern') {
        const result = route.pattern.exec(ctx.input)
        if (!result) continue
        return afterMatch(route, RouteCtx.withMatch(ctx, matchOf(result)), c + 1)
      }
      if (route.kind === 'custom') {
        let matched: boolean | Promise<boolean>
        try {
          matched = route.match(ctx.input, ctx)
        } catch (error) {
          return failed(route, 'match-threw', error)
        }
        if (isPromise<boolean>(matched)) {
          return bounded(matched, route).then(
            (ok) => (ok === TIMED_OUT ? { type: 'timeout', route } : ok === true ? afterMatch(route, ctx, c + 1) : scan(c + 1)),
            (error: unknown) => failed(route, 'match-threw', error),
          )
        }
        if (matched !== true) continue
      }
      return afterMatch(route, ctx, c + 1)
    }
    return MISS
  }

  function afterMatch(route: Route<Ctx>, routeCtx: RouteContext<Ctx>, next: number): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    if (route.guard) {
      let allowed: boolean
      try {
        allowed = route.guard(routeCtx)
      } catch (error) {
        return failed(route, 'guard-threw', error)
      }
      if (allowed !== true) return route.refuse === undefined ? scan(next) : refuse(route, routeCtx, 'guard-refused')
    }
    return fire(route, routeCtx)
  }

  /** The route's `refuse` re-prompt: a deterministic answer, no transition, no assign. */
  function refuse(route: Route<Ctx>, routeCtx: RouteContext<Ctx>, reason: string): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    return respond(route, route.refuse, routeCtx, (result) => {
      const output = read(route, result)
      if ('type' in output) return output
      return { type: 'match', route, event: undefined, after: before, assign: undefined, chunks: output.chunks, outcome: 'refused', reason }
    })
  }

  function fire(route: Route<Ctx>, routeCtx: RouteContext<Ctx>): Resolution<Ctx> | Promise<Resolution<Ctx>> {
    let next = before
    if (route.restart) next = machine.initial
    else if (route.event !== undefined) {
      const stepped = advance(machine, before, route.event)
      if ('type' in stepped) {
        if (route.refuse !== undefined) return refuse(route, routeCtx, `transition-refused:${stepped.reason}`)
        // its words (`the machine refused the transition (…)`) are route-failure.ts's
        return failed(route, `transition-refused:${stepped.reason}`, stepped.error)
      }
      next = stepped
    }
    let patternAssign: Partial<Ctx> | undefined
    if (route.kind === 'pattern' && route.assign !== undefined && routeCtx.match) {
      try {
        patternAssign = route.assign === true ? (routeCtx.match.groups as Partial<Ctx>) : route.assign(routeCtx.match.groups, routeCtx)
      } catch (error) {
        return failed(route, 'pattern-assign-threw', error)
      }
    }
    return respond(route, route.response, routeCtx, (result) => {
      const output = read(route, result)
      if ('type' in output) return output
      // A restart starts from the definition's context: its assign is ignored.
      const assign: Partial<Ctx> | undefined = !route.restart && (patternAssign || output.assign) ? ({ ...patternAssign, ...output.assign } as Partial<Ctx>) : undefined
      const context = assignContext(next.context, assign)
      if (context === undefined) return failed(route, 'assign-not-json')
      const after = context === next.context ? next : Object.freeze({ state: next.state, context })
      let chunks = output.chunks
      if (after.state !== before.state || route.restart) {
        try {
          chunks = entryPrompt(machine, after, chunks)
        } catch (error) {
          return failed(route, 'response-threw', error)
        }
      }
      return { type: 'match', route, event: route.event, restart: route.restart, reason: route.restart && 'restart', after, assign, chunks }
    })
  }

  const orElse = (resolution: Resolution<Ctx>): Resolution<Ctx> => (resolution.type === 'miss' ? unmatched(machine, index, ctx, before, settings) : resolution)
  const resolved = scan(0)
  return isPromise<Resolution<Ctx>>(resolved) ? resolved.then(orElse) : orElse(resolved)
}

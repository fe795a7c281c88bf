import type { AdapterRequest } from '../contract/adapter.js'
import { isComponentPart } from '../contract/component-chunk.js'
import { historyOf } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { agenticTurn } from './agentic-turn.js'
import { ChunkStream } from './chunk-stream.js'
import { MISS, plainMiss, resolveRoutes, turnContext, type ResolveHooks, type Resolution, type SignalSource } from './decide.js'
import { doneWithRecord } from './decision-record.js'
import { answerDecision } from './route-record.js'
import { inputKeyOf, reapply, type Decision, type LastUserMessage } from './decisions.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { failed } from './resolution.js'
import type { Route } from './routes.js'
import { turnSignal, type SessionCore, type TurnControl } from './session-core.js'
import { DONE } from './stream.js'
import { turnKit } from './turn-kit.js'
import { loadRouteWait } from './load-route-wait.js'
import { loadTurnPaths } from './turn-paths.js'
import { TurnRecorder } from './turn-recorder.js'
import { uiEventOf } from './ui-events.js'

/**
 * Apply: one turn of the wrapped adapter (the session's `createSource`). Reads top to bottom:
 * reconcile history → replay a still-valid decision for the last user message → else resolve
 * routes → else forward the identical request to the agentic adapter. A deterministic turn commits
 * its transition when its stream is consumed to `done`; an abort before that commits and caches
 * nothing. `createSource` is synchronous and does no work until the stream is first pulled
 * (adapter invariant A1).
 */

const END: IteratorResult<StreamChunk> = { value: undefined, done: true }
const AGENTIC = Object.freeze({ kind: 'agentic' as const })

export function createTurnSource<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest): StreamSource {
  return new TurnSource(core, request)
}

/**
 * The turn's source, its control (shared with `abort()`) and its stream in one object: a turn
 * allocates this, not a source, two closures, a control record and an iterator (issue 20: the
 * agentic fallthrough costs a bare adapter call plus a constant). `stream()` returns the object
 * itself; the turn starts on its first pull, then every call goes to the turn's own stream.
 */
class TurnSource<Ctx extends JsonObject> implements StreamSource, TurnControl, AsyncIterableIterator<StreamChunk>, ResolveHooks<Ctx>, SignalSource {
  aborted = false
  inner: StreamSource | undefined = undefined
  recorder: TurnRecorder<Ctx> | undefined = undefined
  routes: AbortController | undefined = undefined
  #turn: AsyncIterator<StreamChunk> | undefined = undefined
  readonly #core: SessionCore<Ctx>
  readonly #request: AdapterRequest

  constructor(core: SessionCore<Ctx>, request: AdapterRequest) {
    this.#core = core
    this.#request = request
  }

  stream(): AsyncIterableIterator<StreamChunk> {
    return this
  }

  abort(): void {
    if (this.aborted) return
    this.aborted = true
    try {
      this.inner?.abort()
    } catch {
      // A6 of the inner adapter is its own promise; ours holds regardless.
    }
    this.routes?.abort()
    this.recorder?.abort()
  }

  next(): Promise<IteratorResult<StreamChunk>> {
    this.#turn ??= startTurn(this.#core, this.#request, this)
    return this.#turn.next()
  }

  // The turn's iterators are chatrail's own (a pass-through, a chunk stream, a generator): their `return` resolves a result.
  return(): Promise<IteratorResult<StreamChunk>> {
    return this.#turn?.return?.() ?? Promise.resolve(END)
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamChunk> {
    return this
  }

  // The turn's side of resolving routes: `ctx.signal`, the route it waits for, a timeout.

  signal(): AbortSignal {
    return turnSignal(this)
  }

  /** An async route callback is running: a stop now is traced with that route. */
  waiting(route: Route<Ctx>): void {
    this.recorder?.decided({ kind: route.traceKind ?? 'deterministic', routeId: route.id, event: route.event })
  }

  timedOut(): void {
    this.routes?.abort()
  }
}

function startTurn<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest, control: TurnSource<Ctx>): AsyncIterator<StreamChunk> {
  const startedAt = core.now()
  // a disposed session's error: turn-failures.ts, loaded by the first turn that fails
  if (core.disposed()) return disposed(control)
  if (core.timeline.reconcile(historyOf(request))) core.changed()
  const last = core.timeline.lastUser()
  const before = (last && !last.continuation && core.timeline.before(last.message.id)) || core.timeline.current()
  const recorder = new TurnRecorder(core, startedAt, before.state, last?.message.id)
  control.recorder = recorder
  if (!last || last.continuation) {
    recorder.identify(core.newTurn())
    recorder.resolved = true
    // no routes to resolve
    if (recorder.timing !== undefined) recorder.timing.resolvedAt = startedAt
    return continuationOrAgentic(core, request, control, last, before, recorder)
  }
  const message = last.message
  const inputKey = inputKeyOf(message)
  const replay = replayable(core, last, inputKey, before)
  if (replay) {
    recorder.identify(replay.record.turnId)
    recorder.replayed = true
    return deterministic(core, control, recorder, replay)
  }
  recorder.identify(core.newTurn())
  // The agentic fallthrough's common case: no route context, no resolution.
  // The text as `turnContext` reads it (history from outside may carry no string content).
  const input = typeof message.content === 'string' ? message.content : ''
  const uiEvent = uiEventOf(message)
  if (uiEvent !== undefined && carriesInteraction(message)) return judgedInteraction(core, request, control, recorder, last, before, inputKey, input, uiEvent)
  return routedTurn(core, request, control, recorder, last, before, inputKey, input, uiEvent)
}

/** A user message holding a component interaction (interactions.ts reads it properly). */
const carriesInteraction = (message: Message): boolean => (message.metadata as { chatrail?: { interaction?: unknown } } | undefined)?.chatrail?.interaction !== undefined

/**
 * A component interaction is answered once, by the component's own terms: the judge (loaded on
 * first use, so a definition without components never ships it) refuses a repeat, a component no
 * earlier answer holds and a value it does not offer; anything else is routed as any UI event.
 */
function judgedInteraction<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnSource<Ctx>,
  recorder: TurnRecorder<Ctx>,
  last: LastUserMessage,
  before: MachineState<Ctx>,
  inputKey: string,
  input: string,
  uiEvent: string,
): AsyncIterator<StreamChunk> {
  return after(import('./interaction-refusal.js'), recorder, ({ refusedInteraction }) => {
    if (control.aborted) return undefined
    // the component-part check is handed in: the lazy chunk then shares no module with this one
    const refusal = refusedInteraction(historyOf(request), last.message, core.definition.components, before, isComponentPart)
    return refusal
      ? fromResolution(core, request, control, recorder, last, before, inputKey, refusal)
      : routedTurn(core, request, control, recorder, last, before, inputKey, input, uiEvent)
  })
}

/** The turn's routes (or the agent) answer the message. */
function routedTurn<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnSource<Ctx>,
  recorder: TurnRecorder<Ctx>,
  last: LastUserMessage,
  before: MachineState<Ctx>,
  inputKey: string,
  input: string,
  uiEvent: string | undefined,
): AsyncIterator<StreamChunk> {
  const message = last.message
  const candidates = core.index.candidates(input, uiEvent)
  if (plainMiss(core.machine, candidates, uiEvent, before.state)) return fromResolution(core, request, control, recorder, last, before, inputKey, MISS)
  const ctx = turnContext(message, before, request, core.sessionId, recorder.turnId, control, core.confirmations)
  // Looked up once: reused when the context reads the same text (always, unless content is not a string).
  const resolving = resolveRoutes(core.machine, core.index, ctx, before, core.definition.conversation, control, ctx.input === input ? candidates : undefined)
  if (!isPromise<Resolution<Ctx>>(resolving)) return fromResolution(core, request, control, recorder, last, before, inputKey, resolving)
  // A route is running: a stop records `aborted` at once and ends the stream without waiting for it
  // (route-wait.ts, loaded by the route's first promise: the turn waits for the route anyway).
  recorder.kind = 'deterministic'
  recorder.resolved = true
  resolving.then(undefined, () => undefined) // a rejection while the module loads is still seen by the wait, never unhandled
  return after(loadRouteWait().then((wait) => wait.untilStopped(turnKit, resolving, control)), recorder, (resolution) =>
    resolution === undefined || control.aborted ? undefined : fromResolution(core, request, control, recorder, last, before, inputKey, resolution),
  )
}

function fromResolution<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  recorder: TurnRecorder<Ctx>,
  last: LastUserMessage,
  before: MachineState<Ctx>,
  inputKey: string,
  resolution: Resolution<Ctx>,
): AsyncIterator<StreamChunk> {
  const timing = recorder.timing
  if (timing !== undefined && Number.isNaN(timing.resolvedAt)) timing.resolvedAt = core.now()
  if (resolution.type === 'miss') {
    recorder.decided(AGENTIC)
    return agenticTurn(core, request, control, last, before, recorder)
  }
  const { route } = resolution
  if (resolution.type === 'match' && core.definition.components === undefined && resolution.chunks.some(carriesComponent)) {
    return fromResolution(core, request, control, recorder, last, before, inputKey, failed(route, 'components-undeclared'))
  }
  if (resolution.type === 'match') return deterministic(core, control, recorder, answerDecision(last.message.id, inputKey, before, resolution, recorder.turnId, last.answerId))
  recorder.decided({ kind: route?.traceKind ?? 'deterministic', routeId: route?.id, event: route?.event })
  // A route's timeout (route-timeout.ts) and its failure (turn-failures.ts) load with the rare paths,
  // by the first turn that takes one; a stop while they load ends the turn `aborted`.
  if (resolution.type === 'timeout') return after(loadTurnPaths(), recorder, (paths) => paths.timedOut(turnKit, core, request, control, last, before, recorder, resolution.route))
  return after(loadTurnPaths(), recorder, (paths) => paths.routeFailedTurn(control, recorder, turnKit, resolution))
}

/** A turn of a disposed session: its error chunk, no trace. */
async function* disposed(control: TurnControl): AsyncGenerator<StreamChunk, void> {
  yield* (await loadTurnPaths()).disposedTurn(turnKit, control)
}

/** A chunk a component rides on (route-output.ts made it from the route's answer). */
const carriesComponent = (chunk: StreamChunk): boolean => chunk.metadata?.component !== undefined

/** The decision's chunks, then `done`: the transition commits as the consumer reaches it. */
function deterministic<Ctx extends JsonObject>(core: SessionCore<Ctx>, control: TurnControl, recorder: TurnRecorder<Ctx>, decision: Decision<Ctx>): AsyncIterator<StreamChunk> {
  recorder.decided(decision.record)
  return new ChunkStream(decision.chunks ?? [], control, () => {
    const committed = core.timeline.commit(decision)
    if (committed) core.changed()
    const outcome = decision.outcome ?? 'ok'
    if (committed) recorder.finish(outcome, decision.after.state, decision.reason === undefined ? undefined : { reason: decision.reason })
    else recorder.finish(outcome, undefined, { reason: 'history-changed' })
    return doneWithRecord(decision.record)
  }, () => recorder.finish('aborted'))
}

/**
 * The rest of a turn once `pending` settles (the route it waits for, a module it loads): `rest` gives
 * the stream to go on with, undefined ends the turn. A consumer that walks away records `aborted`.
 */
async function* after<T, Ctx extends JsonObject>(pending: Promise<T>, recorder: TurnRecorder<Ctx>, rest: (value: T) => AsyncIterator<StreamChunk> | undefined): AsyncGenerator<StreamChunk, void> {
  try {
    const next = rest(await pending)
    if (next) yield* { [Symbol.asyncIterator]: () => next }
  } finally {
    recorder.finish('aborted')
  }
}

/** A cached deterministic decision for this exact message that still applies from `before`, rebased onto it. */
function replayable<Ctx extends JsonObject>(core: SessionCore<Ctx>, last: LastUserMessage, inputKey: string, before: MachineState<Ctx>): Decision<Ctx> | undefined {
  const messageId = last.message.id
  const decision = core.timeline.cached(messageId, inputKey)
  if (!decision?.chunks || decision.before.state !== before.state) return undefined
  const after = reapply(core.machine, decision, before)
  if (after) return decision.before === before && decision.answerId === last.answerId ? decision : { ...decision, before, after, answerId: last.answerId }
  // No longer valid from here: forget it and resolve afresh (never an error the user must retry past).
  core.timeline.forget(messageId)
  return undefined
}

/**
 * A request with no user message, or a tool-loop follow-up. After a route answered, the follow-up
 * ends quietly (a matched route never calls the model); otherwise it is the agent's turn.
 */
function continuationOrAgentic<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: TurnRecorder<Ctx>,
): AsyncIterator<StreamChunk> {
  const applied = last ? core.timeline.applied(last.message.id) : undefined
  const record = applied?.record
  if (record && record.kind !== 'agentic') {
    return new ChunkStream([], control, () => {
      recorder.settle({ kind: record.kind, outcome: 'ok', routeId: record.routeId, reason: 'tool-continuation' })
      return DONE
    }, () => recorder.finish('aborted'))
  }
  return agenticTurn(core, request, control, applied ? undefined : last, before, recorder)
}

import type { AdapterRequest } from '../contract/adapter.js'
import { ChatrailError } from '../contract/errors.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { agenticTurn } from './agentic-turn.js'
import { ChunkStream } from './chunk-stream.js'
import { resolveRoutes, turnContext, type Resolution } from './decide.js'
import { doneWithRecord } from './decision-record.js'
import { routeDecisionRecord } from './route-record.js'
import { inputKeyOf, reapply, type Decision, type LastUserMessage } from './decisions.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import type { SessionCore, TurnControl } from './session-core.js'
import { DISPOSED_MESSAGE, ROUTE_FAILED_MESSAGE, errorChunk } from './stream.js'
import { errorClassOf } from './trace.js'
import { TurnRecorder, type TurnOutcome } from './turn-recorder.js'

/**
 * Apply: one turn of the wrapped adapter (the session's `createSource`). Reads top to bottom:
 * reconcile history → replay a still-valid decision for the last user message → else resolve
 * routes → else forward the identical request to the agentic adapter. A deterministic turn commits
 * its transition when its stream is consumed to `done`; an abort before that commits and caches
 * nothing. `createSource` is synchronous and does no work until the stream is first pulled
 * (adapter invariant A1).
 */

const END: IteratorResult<StreamChunk> = { value: undefined, done: true }

export function createTurnSource<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest): StreamSource {
  const control: TurnControl = { aborted: false, inner: undefined, recorder: undefined }
  let iterator: AsyncIterableIterator<StreamChunk> | undefined
  return {
    stream: () => (iterator ??= new LazyTurn(core, request, control)),
    abort() {
      if (control.aborted) return
      control.aborted = true
      try {
        control.inner?.abort()
      } catch {
        // A6 of the inner adapter is its own promise; ours holds regardless.
      }
      control.recorder?.abort()
    },
  }
}

/** Starts the turn on the first pull, then hands every call to the turn's own stream. */
class LazyTurn<Ctx extends JsonObject> implements AsyncIterableIterator<StreamChunk> {
  #inner: AsyncIterator<StreamChunk> | undefined
  readonly #core: SessionCore<Ctx>
  readonly #request: AdapterRequest
  readonly #control: TurnControl

  constructor(core: SessionCore<Ctx>, request: AdapterRequest, control: TurnControl) {
    this.#core = core
    this.#request = request
    this.#control = control
  }

  next(): Promise<IteratorResult<StreamChunk>> {
    this.#inner ??= startTurn(this.#core, this.#request, this.#control)
    return this.#inner.next()
  }

  async return(): Promise<IteratorResult<StreamChunk>> {
    return (await this.#inner?.return?.()) ?? END
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<StreamChunk> {
    return this
  }
}

function startTurn<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest, control: TurnControl): AsyncIterator<StreamChunk> {
  const startedAt = core.now()
  if (core.disposed()) {
    const error = new ChatrailError({ code: 'SESSION_DISPOSED', message: DISPOSED_MESSAGE, hint: 'Create a new session.' })
    return new ChunkStream([], control, () => errorChunk(DISPOSED_MESSAGE, error), () => undefined)
  }
  if (core.timeline.reconcile(request.messages)) core.changed()
  const last = core.timeline.lastUser()
  const before = (last && !last.continuation && core.timeline.before(last.message.id)) || core.timeline.current()
  const recorder = new TurnRecorder(core, startedAt, before.state, last?.message.id)
  control.recorder = recorder
  if (!last || last.continuation) {
    recorder.turnId = core.newId()
    recorder.resolved = true
    return guarded(continuationOrAgentic(core, request, control, last, before, recorder), recorder)
  }
  const message = last.message
  const inputKey = inputKeyOf(message)
  const replay = replayable(core, last, inputKey, before)
  if (replay) {
    recorder.turnId = replay.record.turnId
    recorder.replayed = true
    return deterministic(core, control, recorder, replay)
  }
  recorder.turnId = core.newId()
  const resolving = resolveRoutes(core.machine, core.index, turnContext(message, before, request.messages, core.sessionId, recorder.turnId), before)
  const decide = (resolution: Resolution<Ctx>): AsyncIterator<StreamChunk> => fromResolution(core, request, control, recorder, last, before, inputKey, resolution)
  if (!isPromise<Resolution<Ctx>>(resolving)) return decide(resolving)
  return guarded(
    (async function* () {
      const decided = decide(await resolving)
      if (control.aborted) return
      yield* { [Symbol.asyncIterator]: () => decided }
    })(),
    recorder,
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
  if (resolution.type === 'miss') {
    recorder.resolved = true
    return guarded(settled(agenticTurn(core, request, control, last, before, recorder.turnId, recorder), recorder), recorder)
  }
  const { route } = resolution
  const kind = route.traceKind ?? 'deterministic'
  if (resolution.type === 'failed') {
    recorder.decided({ kind, routeId: route.id, event: route.event })
    return new ChunkStream([], control, () => {
      recorder.finish('error', undefined, { reason: resolution.reason, errorClass: errorClassOf(resolution.error.cause ?? resolution.error) })
      return errorChunk(ROUTE_FAILED_MESSAGE, resolution.error)
    }, () => recorder.finish('aborted'))
  }
  const record = routeDecisionRecord(last.message.id, inputKey, before, resolution, recorder.turnId)
  return deterministic(core, control, recorder, { record, inputKey, before, after: resolution.after, chunks: resolution.chunks, answerId: last.answerId })
}

/** The decision's chunks, then `done`: the transition commits as the consumer reaches it. */
function deterministic<Ctx extends JsonObject>(core: SessionCore<Ctx>, control: TurnControl, recorder: TurnRecorder<Ctx>, decision: Decision<Ctx>): AsyncIterator<StreamChunk> {
  recorder.decided(decision.record)
  return new ChunkStream(decision.chunks ?? [], control, () => {
    const committed = core.timeline.commit(decision)
    if (committed) core.changed()
    if (committed) recorder.finish('ok', decision.after.state)
    else recorder.finish('ok', undefined, { reason: 'history-changed' })
    return doneWithRecord(decision.record)
  }, () => recorder.finish('aborted'))
}

/** Records an `aborted` trace when the consumer walks away from a generator-backed turn. */
async function* guarded<Ctx extends JsonObject>(inner: AsyncGenerator<StreamChunk, unknown>, recorder: TurnRecorder<Ctx>): AsyncGenerator<StreamChunk, void> {
  try {
    yield* inner
  } finally {
    recorder.finish('aborted')
  }
}

/** Runs an outcome-returning stream and records its outcome (if it did not settle itself). */
async function* settled<Ctx extends JsonObject>(inner: AsyncGenerator<StreamChunk, TurnOutcome>, recorder: TurnRecorder<Ctx>): AsyncGenerator<StreamChunk, void> {
  recorder.settle(yield* inner)
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
async function* continuationOrAgentic<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  recorder: TurnRecorder<Ctx>,
): AsyncGenerator<StreamChunk, void> {
  const applied = last ? core.timeline.applied(last.message.id) : undefined
  const record = applied?.record
  if (record && record.kind !== 'agentic') {
    if (control.aborted) return
    recorder.settle({ kind: record.kind, outcome: 'ok', routeId: record.routeId, reason: 'tool-continuation' })
    yield { type: 'done' }
    return
  }
  recorder.settle(yield* agenticTurn(core, request, control, applied ? undefined : last, before, recorder.turnId, recorder))
}

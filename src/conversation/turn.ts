import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import { ChatrailError } from '../contract/errors.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import { agenticTurn, type TurnOutcome } from './agentic-turn.js'
import { resolveRoutes, type Resolution } from './decide.js'
import { doneWithRecord, fingerprint, type DecisionRecord } from './decision-record.js'
import type { Decision, LastUserMessage, Timeline } from './decisions.js'
import { inputKeyOf } from './decisions.js'
import type { ChatDefinition } from './definition.js'
import type { JsonObject } from './json.js'
import { step, type Machine, type MachineState } from './machine.js'
import type { RouteIndex } from './route-index.js'
import { DISPOSED_MESSAGE, ROUTE_FAILED_MESSAGE, errorChunk } from './stream.js'
import { errorClassOf, type TurnKind, type TurnTrace } from './trace.js'
import { uiEventOf } from './ui-events.js'

/**
 * Apply: one turn of the wrapped adapter (the session's `createSource`). Reads top to bottom:
 * reconcile history → replay a still-valid decision for the last user message → else resolve
 * routes → else forward the identical request to the agentic adapter. A deterministic turn commits
 * its transition when its stream is consumed to `done`; an abort before that commits and caches
 * nothing. `createSource` is synchronous and does no work until `stream()` (adapter invariant A1).
 */

/** What a turn needs from its session. */
export interface SessionCore<Ctx extends JsonObject> {
  readonly sessionId: string
  readonly definition: ChatDefinition<Ctx>
  readonly machine: Machine<Ctx>
  readonly index: RouteIndex<Ctx>
  readonly timeline: Timeline<Ctx>
  adapter: () => AdapterFactory | undefined
  newId: () => string
  now: () => number
  /** Records a trace (fills sessionId, time and duration) and notifies observers. */
  trace: (fields: Omit<TurnTrace, 'sessionId' | 'at' | 'durationMs'>, startedAt: number) => void
  /** The timeline changed: recompute the snapshot and notify subscribers. */
  changed: () => void
  disposed: () => boolean
}

/** Mutable per-turn state shared with `abort()` (A6: abort never throws, whenever it is called). */
export interface TurnControl {
  aborted: boolean
  inner: StreamSource | undefined
  /** Records the `aborted` trace at once (a consumer may stop without ever resuming the stream). */
  onAbort: (() => void) | undefined
}

function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof value === 'object' && value !== null && typeof (value as Promise<T>).then === 'function'
}

export function createTurnSource<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest): StreamSource {
  const control: TurnControl = { aborted: false, inner: undefined, onAbort: undefined }
  let iterator: AsyncGenerator<StreamChunk, void> | undefined
  return {
    stream: () => (iterator ??= runTurn(core, request, control)),
    abort() {
      if (control.aborted) return
      control.aborted = true
      try {
        control.inner?.abort()
      } catch {
        // A6 of the inner adapter is its own promise; ours holds regardless.
      }
      control.onAbort?.()
    },
  }
}

async function* runTurn<Ctx extends JsonObject>(core: SessionCore<Ctx>, request: AdapterRequest, control: TurnControl): AsyncGenerator<StreamChunk, void> {
  const startedAt = core.now()
  if (core.disposed()) {
    yield errorChunk(DISPOSED_MESSAGE, new ChatrailError({ code: 'SESSION_DISPOSED', message: DISPOSED_MESSAGE, hint: 'Create a new session.' }))
    return
  }
  if (core.timeline.reconcile(request.messages)) core.changed()
  const last = core.timeline.lastUser()
  const before = (last && !last.continuation && core.timeline.before(last.message.id)) || core.timeline.current()
  const fromState = before.state
  let finished = false
  // What the trace says if the consumer walks away (abort or iterator return) before the end.
  let pending: Omit<TurnTrace, 'sessionId' | 'at' | 'durationMs' | 'outcome'> = { kind: 'agentic', fromState, toState: fromState, turnId: '', messageId: last?.message.id, replayed: false }
  const finish = (fields: Omit<TurnTrace, 'sessionId' | 'at' | 'durationMs'>): void => {
    if (finished) return
    finished = true
    core.trace(fields, startedAt)
  }
  // Until the routes are resolved the kind is unknown: the generator records the abort once it is.
  let resolved = false
  control.onAbort = () => {
    if (resolved) finish({ ...pending, toState: fromState, outcome: 'aborted' })
  }
  const settle = (outcome: TurnOutcome): void => finish({ ...pending, ...outcome, toState: outcome.toState ?? fromState })
  try {
    if (!last || last.continuation) {
      pending = { ...pending, turnId: core.newId() }
      resolved = true
      settle(yield* continuationOrAgentic(core, request, control, last, before, pending.turnId, settle))
      return
    }
    const message = last.message
    const inputKey = inputKeyOf(message)
    const replay = replayable(core, message.id, inputKey, before)
    const turnId = replay?.turnId ?? core.newId()
    pending = { ...pending, turnId }
    let decision: Decision<Ctx>
    if (replay) {
      resolved = true
      decision = { ...replay.decision, before, after: replay.after, answerId: last.answerId }
    } else {
      const turn = { input: message.content, uiEvent: uiEventOf(message), before, history: request.messages, sessionId: core.sessionId, messageId: message.id, turnId }
      const resolving = resolveRoutes(core.machine, core.index, turn)
      const resolution: Resolution<Ctx> = isPromise(resolving) ? await resolving : resolving
      if (resolution.type === 'miss') {
        resolved = true
        settle(yield* agenticTurn(core, request, control, last, before, turnId, settle))
        return
      }
      const kind: TurnKind = resolution.route.traceKind ?? 'deterministic'
      pending = { ...pending, kind, routeId: resolution.route.id, event: resolution.route.event }
      resolved = true
      if (resolution.type === 'failed') {
        if (control.aborted) return
        finish({ kind, outcome: 'error', routeId: resolution.route.id, event: resolution.route.event, fromState, toState: fromState, turnId, messageId: message.id, replayed: false, reason: resolution.reason, errorClass: errorClassOf(resolution.error.cause ?? resolution.error) })
        yield errorChunk(ROUTE_FAILED_MESSAGE, resolution.error)
        return
      }
      const record: DecisionRecord = {
        v: 1, messageId: message.id, input: fingerprint(inputKey), kind, event: resolution.route.event,
        fromState, toState: resolution.after.state, turnId, routeId: resolution.route.id,
        ...(resolution.assign ? { assign: resolution.assign as JsonObject } : {}),
      }
      decision = {
        messageId: message.id, inputKey, kind, routeId: resolution.route.id, event: resolution.route.event, turnId,
        before, after: resolution.after, assign: resolution.assign, answerId: last.answerId, record,
        output: Object.freeze([...resolution.chunks, doneWithRecord(record)]),
      }
    }
    pending = { kind: decision.kind, routeId: decision.routeId, event: decision.event, fromState, toState: decision.after.state, turnId, messageId: message.id, replayed: replay !== undefined }
    const output = decision.output ?? []
    for (const chunk of output) {
      if (control.aborted) return
      if (chunk.type === 'done') {
        const committed = core.timeline.commit(decision)
        if (committed) core.changed()
        finish({ ...pending, outcome: 'ok', ...(committed ? {} : { toState: fromState, reason: 'history-changed' }) })
      }
      yield chunk
    }
  } finally {
    if (!finished) finish({ ...pending, toState: fromState, outcome: 'aborted' })
  }
}

/** A cached deterministic decision for this exact message that still applies from `before`. */
function replayable<Ctx extends JsonObject>(
  core: SessionCore<Ctx>,
  messageId: string,
  inputKey: string,
  before: MachineState<Ctx>,
): { decision: Decision<Ctx>; after: MachineState<Ctx>; turnId: string } | undefined {
  const decision = core.timeline.cached(messageId, inputKey)
  if (!decision?.output || decision.before.state !== before.state) return undefined
  if (decision.before === before) return { decision, after: decision.after, turnId: decision.turnId }
  const [after, effects] = step(core.machine, before, decision.event, decision.assign)
  if (effects[0]?.type === 'transition' && after.state === decision.after.state) return { decision, after, turnId: decision.turnId }
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
  turnId: string,
  settle: (outcome: TurnOutcome) => void,
): AsyncGenerator<StreamChunk, TurnOutcome> {
  const applied = last ? core.timeline.applied(last.message.id) : undefined
  if (applied && applied.kind !== 'agentic') {
    if (control.aborted) return { kind: applied.kind, outcome: 'aborted', routeId: applied.routeId }
    const outcome: TurnOutcome = { kind: applied.kind, outcome: 'ok', routeId: applied.routeId, reason: 'tool-continuation' }
    settle(outcome)
    yield { type: 'done' }
    return outcome
  }
  return yield* agenticTurn(core, request, control, applied ? undefined : last, before, turnId, settle)
}

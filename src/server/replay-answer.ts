import type { Message } from '../contract/message.js'
import { readDecisionRecord, type DecisionRecord } from '../conversation/decision-record.js'
import type { JsonObject } from '../conversation/json.js'
import type { ChatSession } from '../conversation/session.js'
import type { TurnTrace } from '../conversation/trace.js'
import { createUiPartEncoder } from '../protocol/encode-parts.js'
import type { ConversationStore, DefinitionRef, Lease } from '../store/conversation-store.js'
import { withoutVersions, type StoredVersions } from './message-versions.js'
import type { PartSink } from './part-stream.js'
import { snapshotData, withVersionPositions } from './run-turn.js'

/**
 * Regenerate of a stored deterministic answer: the answer is replayed from the store (a fresh
 * assistant message with the same text and record), with no route callback and no model call,
 * and traced `replayed`. A session only caches a decision's chunks in memory, and a server opens a
 * fresh session per request, so the stored answer is the cache here. It applies when the answer
 * carries a deterministic record for this user message that the session adopted (the state after
 * it is the record's), i.e. exactly when a session that had streamed it would replay it.
 */
export interface StoredReplay {
  readonly answer: Message
  readonly record: DecisionRecord
}

/** The stored answer to replay for a regenerate of `messages[userIndex]`, if there is one. */
export function replayableAnswer<Ctx extends JsonObject>(session: ChatSession<Ctx>, messages: readonly Message[], userIndex: number): StoredReplay | undefined {
  const user = messages[userIndex]
  const answerIndex = userIndex + 1
  const answer = messages[answerIndex]
  if (!user || answer?.role !== 'assistant') return undefined
  const record = readDecisionRecord(answer)
  if (!record || record.kind !== 'deterministic' || record.messageId !== user.id) return undefined
  session.sync(messages.slice(0, answerIndex + 1), { trusted: true })
  return session.getSnapshot().state === record.toState ? { answer, record } : undefined
}

export interface ReplayInput<Ctx extends JsonObject> {
  readonly store: ConversationStore
  readonly session: ChatSession<Ctx>
  readonly conversationId: string
  readonly definition: DefinitionRef
  readonly lease: Lease
  /** The principal the conversation belongs to (undefined: `authenticate: 'none'`); the write checks it again. */
  readonly owner: string | undefined
  readonly expectedVersion: number
  readonly user: Message
  readonly assistantId: string
  readonly now: () => Date
  readonly sink: PartSink
  readonly onError: (error: unknown) => void
  /** History before the user message. */
  readonly history: readonly Message[]
  /** The record of versions the replayed answer heads: the regenerate keeps the one it replaces (message-versions.ts). */
  readonly write?: { readonly answerVersions?: StoredVersions }
}

export async function replayStoredAnswer<Ctx extends JsonObject>(input: ReplayInput<Ctx>, replay: StoredReplay): Promise<void> {
  const { sink } = input
  const encoder = createUiPartEncoder({ messageId: input.assistantId })
  // `replayOf` tells the stored replay from the answer it replays (the devtools show it as `replayed`);
  // the replayed turn's timings are not this turn's (it resolved and called nothing)
  const { timings: _replayedTimings, ...kept } = withoutVersions(replay.answer).metadata ?? {}
  const versions = input.write?.answerVersions
  const answer: Message = { ...replay.answer, id: input.assistantId, createdAt: input.now(), metadata: { ...kept, replayOf: replay.answer.id, ...(versions ? { versions } : {}) } }
  sink.write([...encoder.start(), ...encoder.encode({ type: 'text', content: answer.content })])
  try {
    await input.store.append(input.conversationId, {
      expectedVersion: input.expectedVersion,
      messages: [answer],
      definition: input.definition,
      truncateAfter: input.user.id,
      lease: input.lease,
      ...(input.owner === undefined ? {} : { owner: input.owner }),
      release: 'completed',
    })
  } catch (error) {
    input.onError(error)
    await input.store.release(input.lease, 'failed').catch(() => false)
    sink.write([{ type: 'error', errorText: 'STORE_FAILED' }, ...encoder.finish(undefined, 'error')])
    sink.close()
    return
  }
  const { record } = replay
  const trace: TurnTrace = {
    kind: record.kind,
    outcome: 'ok',
    ...(record.routeId === undefined ? {} : { routeId: record.routeId }),
    event: record.event,
    fromState: record.fromState,
    toState: record.toState,
    sessionId: input.conversationId,
    turnId: record.turnId,
    messageId: input.user.id,
    replayed: true,
    at: input.now().toISOString(),
    durationMs: 0,
  }
  sink.write(encoder.finish(withVersionPositions({ ...snapshotData(input.session), trace }, [...input.history, input.user, answer])))
  sink.close()
}

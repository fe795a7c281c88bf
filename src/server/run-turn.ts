import { ChatrailError } from '../contract/errors.js'
import type { Message } from '../contract/message.js'
import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject } from '../conversation/json.js'
import type { ChatSession } from '../conversation/session.js'
import type { ConversationStore, DefinitionRef, Lease } from '../store/conversation-store.js'
import { createUiPartEncoder } from '../protocol/encode-parts.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import type { PartSink } from './part-stream.js'
import type { TurnWrite } from './plan-turn.js'

/**
 * One turn without a controller: the session answers the request built from stored history plus
 * the new user message, every chunk goes to the client as it arrives, and the finished turn is
 * stored in one fenced append that also releases the lease. The lease is renewed while the turn
 * streams, up to `turnTimeoutMs`. A turn that ends in an error (or times out) stores nothing (a
 * retry runs it again) and releases its lease as `failed`. `finish` is written only after the
 * store answered, so a client that saw `finish` without an error part knows the turn is stored.
 */
export interface TurnInput<Ctx extends JsonObject> {
  readonly store: ConversationStore
  readonly session: ChatSession<Ctx>
  readonly conversationId: string
  readonly definition: DefinitionRef
  readonly lease: Lease
  readonly leaseMs: number
  /** The turn ends with `TURN_TIMEOUT` (nothing stored, lease released as failed) when the agent has not finished by then. */
  readonly turnTimeoutMs: number
  /** The stored version the turn's write expects. */
  readonly expectedVersion: number
  /** History before the user message this turn answers. */
  readonly history: readonly Message[]
  readonly user: Message
  /** Where the store truncates first (edit, regenerate) and whether the user message is appended. */
  readonly write: TurnWrite
  readonly assistantId: string
  readonly now: () => Date
  readonly sink: PartSink
  readonly onError: (error: unknown) => void
}

/** What an error part says: a code, never an internal message. */
function errorCodeOf(chunk: StreamChunk): string {
  const carried = chunk.metadata?.error
  return ChatrailError.isInstance(carried) ? carried.code : 'AGENT_ERROR'
}

export function snapshotData<Ctx extends JsonObject>(session: ChatSession<Ctx>, messageId?: string): ChatrailPartData {
  const snapshot = session.getSnapshot()
  const trace = messageId === undefined ? undefined : session.traces().findLast((candidate) => candidate.messageId === messageId)
  return {
    state: snapshot.state,
    events: snapshot.events,
    actions: snapshot.actions,
    ...(trace ? { trace } : {}),
    ...(snapshot.agent ? { agent: snapshot.agent } : {}),
  }
}

export async function runTurn<Ctx extends JsonObject>(input: TurnInput<Ctx>): Promise<void> {
  const { store, sink, user } = input
  const encoder = createUiPartEncoder({ messageId: input.assistantId, describeError: errorCodeOf })
  sink.write(encoder.start())
  let lease = input.lease
  const renewal = setInterval(() => {
    store.renew(lease, { leaseMs: input.leaseMs }).then((renewed) => { lease = renewed }, input.onError)
  }, Math.max(1, Math.floor(input.leaseMs / 3)))
  let text = ''
  let record: unknown
  let failed = false
  let deadline: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => {
    deadline = setTimeout(() => resolve('timeout'), input.turnTimeoutMs)
  })
  try {
    const source = input.session.chat.adapter.createSource({ messages: [...input.history, user] })
    const iterator = source.stream()
    for (;;) {
      // a hung agent must not hold the conversation forever: the lease is renewed only until the deadline
      const step = await Promise.race([iterator.next(), timedOut])
      if (step === 'timeout') {
        source.abort()
        void Promise.resolve(iterator.return?.()).catch(() => undefined)
        sink.write(encoder.encode({ type: 'error', metadata: { error: new ChatrailError({ code: 'TURN_TIMEOUT', message: `The turn did not finish within ${input.turnTimeoutMs} ms.` }) } }))
        failed = true
        break
      }
      if (step.done) break
      const chunk = step.value
      sink.write(encoder.encode(chunk))
      if (chunk.type === 'text' && typeof chunk.content === 'string') text += chunk.content
      if (chunk.type === 'error') {
        failed = true
        break
      }
      if (chunk.type === 'done') {
        record = chunk.metadata?.chatrail
        break
      }
    }
  } catch (error) {
    // the session records failures as chunks; a throw here is a bug in an adapter outside it
    input.onError(error)
    sink.write(encoder.encode({ type: 'error', content: 'turn failed' }))
    failed = true
  } finally {
    clearInterval(renewal)
    clearTimeout(deadline)
  }
  if (failed) {
    await store.release(lease, 'failed').catch(input.onError)
    sink.write(encoder.finish(snapshotData(input.session, user.id), 'error'))
    sink.close()
    return
  }
  const assistant: Message = {
    id: input.assistantId,
    role: 'assistant',
    content: text,
    status: 'complete',
    createdAt: input.now(),
    ...(typeof record === 'object' && record !== null ? { metadata: { chatrail: record } } : {}),
  }
  try {
    await store.append(input.conversationId, {
      expectedVersion: input.expectedVersion,
      messages: input.write.includeUser ? [user, assistant] : [assistant],
      definition: input.definition,
      ...(input.write.truncateAfter === undefined ? {} : { truncateAfter: input.write.truncateAfter }),
      lease,
      release: 'completed',
    })
    sink.write(encoder.finish(snapshotData(input.session, user.id)))
  } catch (error) {
    input.onError(error)
    await store.release(lease, 'failed').catch(() => false)
    // no snapshot: the session moved, but what is stored did not
    sink.write([{ type: 'error', errorText: 'STORE_FAILED' }, ...encoder.finish(undefined, 'error')])
  }
  sink.close()
}

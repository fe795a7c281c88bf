import { isIdentifier } from '../conversation/identifier.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { SSE_DONE } from '../protocol/sse.js'
import type { ConversationStore, StoredConversation } from '../store/conversation-store.js'
import type { TurnPartsRead, TurnPartsRecord } from '../store/turn-parts.js'
import { badRequest, HttpError, streamResponse } from './http-responses.js'
import { createReplayTracker, type ReplayTracker } from './replay-tracker.js'
import { wakeableWait, type WakeableWait } from './wakeable-wait.js'

/**
 * `GET <api>/<conversationId>/stream`: what `useChat({ resume: true })` asks on mount (the AI SDK's
 * `DefaultChatTransport.reconnectToStream`) and after a dropped connection. Answered by any
 * instance from the store (turn-recorder.ts records a running turn's parts there):
 * - 200 with the turn's UI message stream: the parts recorded so far (from its `start`, as the AI
 *   SDK expects of a resumed stream: it replaces the message it had), then the live ones, read
 *   when the store wakes the follower (`store.subscribe`: a batch was recorded) and by polling the
 *   store every `pollMs` (every `WOKEN_POLL_MS` at least when the store wakes), until `finish`
 *   and `[DONE]`;
 * - 204 when no turn is running: none holds the lease, the last one finished, or one that holds the
 *   lease recorded nothing within `FIRST_BATCH_WAIT_MS` (a turn of an instance that records no
 *   parts, e.g. of the previous version). A turn that ended before its first batch recorded nothing:
 *   its answer is stored, and a client that got 204 reads it with GET.
 * A client that goes away ends the polling; the turn goes on (only the stop action stops it).
 * Bounded: a turn that stops producing parts ends its followers when its lease ends (within
 * `leaseMs` of its instance dying) plus `FINISH_GRACE_MS`, with the stored answer or an error part.
 */
export interface ResumeContext {
  readonly store: ConversationStore
  readonly pollMs: number
  readonly clock: () => number
  readonly onError: (error: unknown) => void
  /** The stored conversation again, for the end of a stream whose recorded parts stop short. */
  readonly load: (conversationId: string) => Promise<StoredConversation | undefined>
  /** Where the stored conversation stands, for that ending's `data-chatrail` part. */
  readonly snapshotOf: (conversationId: string, stored: StoredConversation) => Promise<ChatrailPartData | undefined>
}

/** How long a reconnect waits for the first batch of a turn that holds the lease before it answers 204. */
export const FIRST_BATCH_WAIT_MS = 3000
/** How long after its lease ended a turn's `finish` may still arrive (it is recorded after the answer is stored). */
export const FINISH_GRACE_MS = 5000
/**
 * The follower's poll when the store wakes it on every recorded batch: then the poll only finds
 * what no wake announced (a lease that ended without a last batch, a wake lost while a Postgres
 * listener reconnected), both of which may wait this long, so it need not run every `pollMs`
 * (50 ms by default): a tenth of the queries per follower.
 */
export const WOKEN_POLL_MS = 500

/**
 * The conversation a GET resumes, from the path `<api>/<id>/stream`; undefined for any other GET
 * (`?id=` is the conversation itself, so a handler mounted at a path ending in `/stream` keeps its GET).
 */
export function resumeConversationIdOf(url: URL): string | undefined {
  if (url.searchParams.has('id')) return undefined
  const match = /\/([^/]+)\/stream\/?$/.exec(url.pathname)
  if (!match) return undefined
  let id: string
  try {
    id = decodeURIComponent(match[1] as string)
  } catch {
    id = ''
  }
  if (!isIdentifier(id)) throw badRequest('id', 'The conversation id in <api>/<id>/stream must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
  return id
}

const noContent = (): Response => {
  const response = new Response(null, { status: 204 })
  response.headers.set('cache-control', 'no-store')
  return response
}

/**
 * The answer to a reconnect. `stored` is the conversation as the caller loaded it after checking
 * that it is the principal's (another principal's is 404 before this); a first turn's conversation
 * is not stored yet, so its record (or lease) must name the principal too.
 */
export async function resumeStream(ctx: ResumeContext, conversationId: string, owner: string | undefined, stored: StoredConversation | undefined): Promise<Response> {
  const { store } = ctx
  if (typeof store.readTurnParts !== 'function') return noContent()
  const read = (options: { turnId?: string; from?: number } = {}): Promise<TurnPartsRead> => (store.readTurnParts as NonNullable<ConversationStore['readTurnParts']>)(conversationId, options)
  let first = await read()
  if (!stored && (first.turn || first.lease) && (first.turn?.owner ?? first.lease?.owner) !== owner) throw new HttpError(404, 'not_found', 'There is no conversation with this id.')
  // a turn that holds the lease and has not recorded its first batch yet (its first batch wakes us)
  const waitingSince = ctx.clock()
  if (!first.turn && first.lease?.held === true) {
    const waiting = wakeableWait(store, conversationId, 'turn-parts')
    try {
      while (!first.turn && first.lease?.held === true) {
        if (ctx.clock() - waitingSince >= FIRST_BATCH_WAIT_MS) return noContent()
        await waiting.wait(ctx.pollMs)
        first = await read()
      }
    } finally {
      waiting.close()
    }
  }
  const turn = first.turn
  if (!turn || (turn.finished && !turn.overflowed)) return noContent()
  const running = first.lease?.turnId === turn.turnId && first.lease.held
  if (!running && (turn.finished || ctx.clock() - turn.updatedAt.getTime() > FINISH_GRACE_MS)) return noContent()
  return streamResponse(follow(ctx, conversationId, turn, first, read))
}

/** The replayed and then followed parts, as an SSE body that stops polling when the client leaves. */
function follow(ctx: ResumeContext, conversationId: string, first: TurnPartsRecord, firstRead: TurnPartsRead, read: (options: { turnId?: string; from?: number }) => Promise<TurnPartsRead>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const tracker = createReplayTracker()
  let cancelled = false
  let waiting: WakeableWait | undefined
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (events: string): void => {
        if (cancelled || events === '') return
        try {
          controller.enqueue(encoder.encode(events))
        } catch {
          cancelled = true
        }
      }
      const end = (events: string): void => {
        send(events + SSE_DONE)
        if (cancelled) return
        cancelled = true
        waiting?.close()
        try {
          controller.close()
        } catch {
          // already cancelled
        }
      }
      const wait = (waiting = wakeableWait(ctx.store, conversationId, 'turn-parts'))
      const pollMs = wait.subscribed ? Math.max(ctx.pollMs, WOKEN_POLL_MS) : ctx.pollMs
      void run(ctx, conversationId, first, firstRead, read, tracker, {
        send,
        end,
        cancelled: () => cancelled,
        sleep: () => wait.wait(pollMs),
      }).catch((error: unknown) => {
        ctx.onError(error)
        end(eventsOf([{ type: 'error', errorText: 'STORE_FAILED' }, { type: 'finish', finishReason: 'error' }]))
      })
    },
    cancel() {
      cancelled = true
      waiting?.close()
    },
  })
}

interface Out {
  send: (events: string) => void
  end: (events: string) => void
  cancelled: () => boolean
  /** Until the next read: the poll's interval, or sooner when the store wakes the follower. */
  sleep: () => Promise<void>
}

async function run(ctx: ResumeContext, conversationId: string, first: TurnPartsRecord, firstRead: TurnPartsRead, read: (options: { turnId?: string; from?: number }) => Promise<TurnPartsRead>, tracker: ReplayTracker, out: Out): Promise<void> {
  const { turnId } = first
  let turn: TurnPartsRecord | undefined = first
  let lease = firstRead.lease
  let from = 0
  let leaseEndedAt: number | undefined
  let failingSince: number | undefined
  while (!out.cancelled()) {
    if (turn) {
      out.send(replayed(turn.parts, tracker))
      from += turn.parts.length
      if (turn.finished && !turn.overflowed) return out.end('')
      if (turn.finished) break // overflowed: the rest is the stored answer
      const running = lease?.turnId === turnId && lease.held
      if (running) leaseEndedAt = undefined
      else if ((leaseEndedAt ??= ctx.clock()) + FINISH_GRACE_MS <= ctx.clock()) break
    }
    await out.sleep()
    if (out.cancelled()) return
    try {
      const next = await read({ turnId, from })
      failingSince = undefined
      // the record is gone (deleted with its conversation, or swept): end with what the store holds
      if (!next.turn) break
      turn = next.turn
      lease = next.lease
    } catch (error) {
      ctx.onError(error)
      turn = undefined // nothing new; try again at the next poll, for as long as the grace
      if ((failingSince ??= ctx.clock()) + FINISH_GRACE_MS <= ctx.clock()) throw error
    }
  }
  if (out.cancelled()) return
  const stored = await ctx.load(conversationId)
  const answer = tracker.messageId === undefined ? undefined : stored?.messages.find((message) => message.id === tracker.messageId)
  const snapshot = answer && stored ? await ctx.snapshotOf(conversationId, stored).catch((error: unknown) => {
    ctx.onError(error)
    return undefined
  }) : undefined
  out.end(eventsOf(tracker.ending(answer, snapshot)))
}

/** Recorded parts as SSE events (sent verbatim), seen by the tracker on the way. */
function replayed(parts: readonly string[], tracker: ReplayTracker): string {
  let events = ''
  for (const part of parts) {
    try {
      tracker.see(JSON.parse(part) as unknown)
    } catch {
      continue // not a part chatrail recorded: never sent (the client's parser would fail the stream)
    }
    events += `data: ${part}\n\n`
  }
  return events
}

const eventsOf = (parts: readonly unknown[]): string => parts.map((part) => `data: ${JSON.stringify(part)}\n\n`).join('')

import type { ConversationSummary } from '../store/conversation-store.js'
import type { ConversationChangedEvent, DevtoolsReadyEvent } from './devtools-api.js'
import type { DevtoolsContext } from './devtools-context.js'

/**
 * `GET /events`: server-sent events of conversation writes. Instances never talk to each other,
 * so the stream polls the store's newest-first listing (one short page per poll, more only while
 * every row is news) and sends each conversation whose write is newer than the last one it sent.
 * Bounded: it ends after `maxMs`, when the client goes away (the request's signal), or when the
 * handler closes; one poll at a time, at most `MAX_POLL_PAGES` pages, and what it keeps is the ids
 * written at the newest time it has seen (to tell a second write in the same millisecond from one
 * already sent).
 */

const POLL_PAGE = 100
const MAX_POLL_PAGES = 10

/** The conversations written at or after `since`, newest first. */
async function writtenSince(context: DevtoolsContext, owner: string | undefined, since: number): Promise<ConversationSummary[]> {
  const found: ConversationSummary[] = []
  let cursor: string | undefined
  for (let pages = 0; pages < MAX_POLL_PAGES; pages++) {
    const page = await context.store.list({ order: 'newest', limit: POLL_PAGE, ...(owner === undefined ? {} : { owner }), ...(cursor === undefined ? {} : { cursor }) })
    for (const summary of page.conversations) {
      if (summary.updatedAt.getTime() < since) return found
      found.push(summary)
    }
    if (page.nextCursor === undefined) break
    cursor = page.nextCursor
  }
  return found
}

export interface EventsOptions {
  readonly pollMs: number
  readonly maxMs: number
  readonly heartbeatMs: number
  /** Aborted by the handler's `close()`. */
  readonly closed: AbortSignal
}

const encoder = new TextEncoder()

function frame(event: string, data: unknown): Uint8Array {
  return encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

function changed(summary: ConversationSummary): ConversationChangedEvent {
  return {
    id: summary.conversationId,
    definition: { id: summary.definition.id, revision: summary.definition.revision },
    version: summary.version,
    messageCount: summary.messageCount,
    updatedAt: summary.updatedAt.toISOString(),
  }
}

export async function eventsResponse(context: DevtoolsContext, request: Request, principal: string | undefined, options: EventsOptions): Promise<Response> {
  const owner = context.visibleTo(principal)
  // where the stream starts: every write after the newest one is news
  const newest = (await context.store.list({ order: 'newest', limit: 1, ...(owner === undefined ? {} : { owner }) })).conversations[0]
  let watermark = newest?.updatedAt.getTime() ?? 0
  let atWatermark = new Map<string, number>()
  for (const summary of newest === undefined ? [] : await writtenSince(context, owner, watermark)) atWatermark.set(summary.conversationId, summary.version)
  const startedAt = context.clock()
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastBeat = startedAt
  let finished = false

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const end = (): void => {
        if (finished) return
        finished = true
        clearTimeout(timer)
        request.signal.removeEventListener('abort', end)
        options.closed.removeEventListener('abort', end)
        try {
          controller.close()
        } catch {
          // already closed by the client
        }
      }
      if (request.signal.aborted || options.closed.aborted) return end()
      request.signal.addEventListener('abort', end, { once: true })
      options.closed.addEventListener('abort', end, { once: true })
      const ready: DevtoolsReadyEvent = { now: new Date(startedAt).toISOString(), pollMs: options.pollMs }
      controller.enqueue(encoder.encode(`retry: ${options.pollMs}\n\n`))
      controller.enqueue(frame('ready', ready))

      const poll = async (): Promise<void> => {
        if (finished) return
        let written: ConversationSummary[] = []
        try {
          written = await writtenSince(context, owner, watermark)
        } catch (error) {
          // the store is down for a moment: the stream waits for it rather than ending
          context.onError(error)
        }
        if (finished) return
        const news = written.filter((summary) => summary.updatedAt.getTime() > watermark || atWatermark.get(summary.conversationId) !== summary.version)
        if (news.length > 0) {
          const newest = news[0] as ConversationSummary
          if (newest.updatedAt.getTime() > watermark) {
            watermark = newest.updatedAt.getTime()
            atWatermark = new Map()
          }
          for (const summary of news) if (summary.updatedAt.getTime() === watermark) atWatermark.set(summary.conversationId, summary.version)
          // oldest first, as they happened
          for (let i = news.length - 1; i >= 0; i--) controller.enqueue(frame('conversation', changed(news[i] as ConversationSummary)))
        }
        const now = context.clock()
        if (now - lastBeat >= options.heartbeatMs) {
          lastBeat = now
          controller.enqueue(encoder.encode(': heartbeat\n\n'))
        }
        if (now - startedAt >= options.maxMs) return end()
        timer = setTimeout(() => void poll(), options.pollMs)
      }
      timer = setTimeout(() => void poll(), options.pollMs)
    },
    cancel() {
      finished = true
      clearTimeout(timer)
    },
  })
  const response = new Response(body, { status: 200 })
  response.headers.set('content-type', 'text/event-stream; charset=utf-8')
  response.headers.set('cache-control', 'no-store')
  response.headers.set('x-accel-buffering', 'no')
  return response
}

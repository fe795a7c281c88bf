import { createParser } from 'eventsource-parser'
import type { ConversationChangedEvent, DevtoolsReadyEvent } from '../../src/devtools/devtools-api.js'
import type { DevtoolsClient } from './devtools-client.js'

/**
 * The devtools' live updates: `GET <api>/events` read with fetch (an `EventSource` cannot send
 * the bearer token) and eventsource-parser, reconnected after the server ends the stream (it does
 * every few minutes) or the network drops it. Each `conversation` event is handed on; the page
 * decides what to reload. Malformed event data is skipped, never thrown.
 */

export type LiveStatus = 'connecting' | 'live' | 'reconnecting'

export interface WatchOptions {
  readonly signal: AbortSignal
  readonly onChange: (event: ConversationChangedEvent) => void
  readonly onStatus?: (status: LiveStatus) => void
  /** Wait before a reconnect when the server named none (its `retry:`). Default 2 s. */
  readonly retryMs?: number
  /** Injectable for tests. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

const sleepFor = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })

function parse<T>(data: string): T | undefined {
  try {
    return JSON.parse(data) as T
  } catch {
    return undefined
  }
}

/** Reads one events response to its end; resolves with the retry interval the server asked for. */
async function readOnce(response: Response, options: WatchOptions): Promise<number | undefined> {
  let retry: number | undefined
  const parser = createParser({
    onEvent: (message) => {
      if (message.event === 'ready') {
        options.onStatus?.('live')
        const ready = parse<DevtoolsReadyEvent>(message.data)
        if (ready !== undefined && Number.isFinite(ready.pollMs)) retry ??= ready.pollMs
      } else if (message.event === 'conversation') {
        const changed = parse<ConversationChangedEvent>(message.data)
        if (changed !== undefined && typeof changed.id === 'string') options.onChange(changed)
      }
    },
    onRetry: (ms) => { retry = ms },
  })
  const body = response.body
  if (body === null) return retry
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return retry
      parser.feed(value)
    }
  } finally {
    reader.releaseLock()
  }
}

/** Watches until `signal` aborts. Never rejects. */
export async function watchConversations(client: Pick<DevtoolsClient, 'events'>, options: WatchOptions): Promise<void> {
  const sleep = options.sleep ?? sleepFor
  let first = true
  while (!options.signal.aborted) {
    options.onStatus?.(first ? 'connecting' : 'reconnecting')
    first = false
    let retry: number | undefined
    try {
      retry = await readOnce(await client.events(options.signal), options)
    } catch {
      // a dropped connection, a 5xx, an abort: try again after the pause (an abort ends the loop)
    }
    if (options.signal.aborted) return
    options.onStatus?.('reconnecting')
    await sleep(retry ?? options.retryMs ?? 2000, options.signal)
  }
}

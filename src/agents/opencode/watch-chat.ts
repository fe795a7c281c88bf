import type { AgentChat } from '../../contract/agent-chat.js'
import { composeChat } from './compose-chat.js'
import { checkSessionId, createOpencodeClient } from './http-client.js'
import type { OpencodeAuth } from './http-client.js'
import type { OpencodeServerError } from './opencode-errors.js'
import { fetchSnapshot } from './read-chat.js'
import { applyEvent, createSessionModel, resync } from './session-fold.js'
import type { OpencodeEvent } from './sse-parser.js'

export interface WatchChatInput {
  baseUrl: string
  sessionId: string
  /** Basic auth; default from `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`; `null`: none. */
  auth?: OpencodeAuth | null
  /** Called once per change of the composed chat (and once after the first sync). */
  onChange: (chat: AgentChat) => void
  /** Wait before reconnecting after the stream was lost (default 1000 ms). */
  reconnectMs?: number
  /** Per HTTP request (default 10 s). */
  timeoutMs?: number
  /** The largest JSON body read (default 32 MiB). */
  maxBodyBytes?: number
  /** The largest event of the stream (default 16 MiB); a larger one is skipped and named in the chat's `warnings`. */
  maxEventBytes?: number
}

export interface ChatWatcher {
  /** Resolves after the first sync (rejects with the `OpencodeServerError` when it fails). */
  readonly ready: Promise<AgentChat>
  /** The chat as last composed. */
  current: () => AgentChat | undefined
  /** Stops watching (idempotent). */
  close: () => void
}

const MAX_STREAM_WARNINGS = 20

/**
 * Follows one session live: subscribes to `GET /event` first, then resyncs from the server (so no
 * event falls between the two), then folds each event of the session as it arrives. When the stream
 * is lost the chat says so (`status: 'unknown'`, `detail` naming the server) and the watcher
 * reconnects every `reconnectMs`, resyncing on success. An event the stream had to skip (over
 * `maxEventBytes`, or malformed) is named in the chat's `warnings`. Never throws after `ready`.
 */
export function watchChat(input: WatchChatInput): ChatWatcher {
  const client = createOpencodeClient({
    baseUrl: input.baseUrl,
    ...(input.auth !== undefined ? { auth: input.auth } : {}),
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    ...(input.maxBodyBytes !== undefined ? { maxBodyBytes: input.maxBodyBytes } : {}),
    ...(input.maxEventBytes !== undefined ? { maxEventBytes: input.maxEventBytes } : {}),
  })
  const sessionId = checkSessionId(input.sessionId, client.baseUrl)
  const model = createSessionModel(sessionId)
  const controller = new AbortController()
  let chat: AgentChat | undefined
  let lastJson = ''
  let timer: ReturnType<typeof setTimeout> | undefined
  /** What the streams skipped (over the cap, malformed), across reconnects: the first few, then a count. */
  const streamWarnings: string[] = []
  let moreWarnings = 0

  const publish = (): void => {
    const warnings = moreWarnings > 0 ? [...streamWarnings, `${moreWarnings} more skipped events`] : streamWarnings
    const next = composeChat(model, { warnings })
    const json = JSON.stringify(next)
    if (json === lastJson) return
    lastJson = json
    chat = next
    input.onChange(next)
  }

  async function connect(): Promise<void> {
    let buffered: OpencodeEvent[] | undefined = []
    const onEvent = (event: OpencodeEvent): void => {
      if (buffered) buffered.push(event)
      else if (applyEvent(model, event)) publish()
    }
    const onWarning = (message: string): void => {
      if (streamWarnings.length < MAX_STREAM_WARNINGS) streamWarnings.push(message)
      else moreWarnings += 1
      publish()
    }
    const { ended } = await client.subscribe(onEvent, controller.signal, { onWarning })
    void ended.then(lost)
    resync(model, await fetchSnapshot(client, sessionId))
    for (const event of buffered) applyEvent(model, event)
    buffered = undefined
    publish()
  }

  function lost(error: OpencodeServerError | undefined): void {
    if (error === undefined || controller.signal.aborted) return
    model.lost = `lost the OpenCode server: ${error.message}`
    publish()
    timer = setTimeout(() => void connect().catch(lost), input.reconnectMs ?? 1000)
  }

  const ready = connect().then(() => chat ?? composeChat(model))
  ready.catch(() => controller.abort())
  return {
    ready,
    current: () => chat,
    close() {
      clearTimeout(timer)
      controller.abort()
    },
  }
}

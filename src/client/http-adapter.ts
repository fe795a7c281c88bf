import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { errorOfResponse, HttpAdapterError } from './http-adapter-error.js'
import { errorChunk, readTurn } from './read-turn.js'
import { chatRequestBody, lastUserMessage } from './request-body.js'

/**
 * `httpAdapter`: a chatrail server (`createChatHandler`) as an `AdapterFactory`, so chatrail's
 * controller and `chatrail/react` run against it. Each source POSTs one turn in `useChat`'s body
 * and reads the UI message stream back into chunks: text and reasoning as they stream, the
 * `data-chatrail` snapshot to `onSnapshot` (and on the `done` chunk as `metadata.chatrailSnapshot`),
 * an error part or an error status as one `error` chunk carrying an `HttpAdapterError`.
 * Browser-safe: Web `fetch` and streams only.
 *
 * The server owns history and routing: the client's copy is sent as `useChat` would, and only the
 * new user message counts. A user message this adapter already saw answered is asked again as
 * `regenerate-message` (the controller's regenerate/retry); a network retry of an unanswered one
 * is a plain submit, which the server answers from the store if it did run.
 *
 * A turn whose connection breaks is resumed (read-turn.ts): the server runs it to its end anyway,
 * so the source reconnects to its stream (`GET <api>/<id>/stream`) and goes on where it was; a
 * restored conversation whose turn still runs (`noteRunning`) is followed the same way. Aborting a
 * source only disconnects (the turn goes on on the server); stopping a turn is the server's stop
 * action (`POST { id, action: 'stop' }`), which chatrail/react/remote sends on stop.
 */
export interface HttpAdapterOptions {
  /** The handler's URL (`/api/chat`). */
  readonly api: string
  /** The conversation: the body's `id`. Letters, digits and `. _ : -`. */
  readonly conversationId: string
  /** Extra request headers (`Authorization`), or a function read before every request. */
  readonly headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  /** Default: the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch
  /** `fetch`'s credentials mode (cookies for a same-site API). Default: the browser's (`same-origin`). */
  readonly credentials?: RequestCredentials
  /** Every `data-chatrail` part: where the server's conversation stands after the turn. */
  readonly onSnapshot?: (data: ChatrailPartData) => void
}

/** An `AdapterFactory`, plus what a page restoring a stored conversation tells it. */
export interface HttpAdapter extends AdapterFactory {
  /**
   * User messages already answered on the server (a restored conversation's), so that asking
   * again for one (regenerate, retry) is a `regenerate-message`, not a submit the server answers
   * from the store. Pass the messages (`{ id, content }`) rather than bare ids so that an edit of
   * one (same id, new text) goes as the submit the server takes as an edit; with a bare id, any
   * later turn for it is taken as a regenerate.
   */
  noteAnswered: (userMessages: Iterable<string | { id: string; content: string }>) => void
  /**
   * A user message whose turn is running on the server now (a restored conversation's last message
   * when GET says `running`): the next source asked for it follows that turn's stream
   * (`GET <api>/<id>/stream`) instead of posting it again, and ends with its answer.
   */
  noteRunning: (userMessageId: string) => void
}

export function httpAdapter(options: HttpAdapterOptions): HttpAdapter {
  if (typeof options?.api !== 'string' || options.api === '') throw new TypeError('httpAdapter: pass { api }, the URL of the chatrail handler (e.g. "/api/chat").')
  if (typeof options.conversationId !== 'string' || options.conversationId === '') throw new TypeError('httpAdapter: pass { conversationId }, the id of the conversation on the server.')
  // user message id → the text this factory saw answered (undefined: not known). Asking again for
  // one with the same text is a regenerate; with other text it is an edit, which the server takes
  // as a submit of the same id with new text.
  const answered = new Map<string, string | undefined>()
  const running = new Set<string>()
  return {
    createSource: (request) => createHttpSource(options, answered, running, request),
    capabilities: { streaming: true, reasoning: true },
    noteAnswered: (userMessages) => {
      for (const message of userMessages) {
        if (typeof message === 'string') answered.set(message, undefined)
        else answered.set(message.id, message.content)
      }
    },
    noteRunning: (userMessageId) => {
      running.add(userMessageId)
    },
  }
}

function createHttpSource(options: HttpAdapterOptions, answered: Map<string, string | undefined>, running: Set<string>, request: AdapterRequest): StreamSource {
  const controller = new AbortController()
  return {
    stream: () => streamTurn(options, answered, running, request, controller.signal),
    abort: () => {
      if (!controller.signal.aborted) controller.abort()
    },
  }
}

/** Asked again with the text that was answered (or text not known): a regenerate, not an edit. */
function isRegenerate(answered: ReadonlyMap<string, string | undefined>, id: string, content: string): boolean {
  if (!answered.has(id)) return false
  const text = answered.get(id)
  return text === undefined || text === content
}

async function* streamTurn(options: HttpAdapterOptions, answered: Map<string, string | undefined>, running: Set<string>, request: AdapterRequest, signal: AbortSignal): AsyncGenerator<StreamChunk> {
  if (signal.aborted) return
  const user = lastUserMessage(request.messages)
  if (user !== undefined && running.delete(user.id)) {
    try {
      yield* readTurn(options, 'resume', user, answered, signal)
    } finally {
      // the turn ran on the server: asking again for it is a regenerate, as after a stop below
      if (signal.aborted) answered.set(user.id, user.content)
    }
    return
  }
  const trigger = user !== undefined && isRegenerate(answered, user.id, user.content) ? 'regenerate-message' : 'submit-message'
  const doFetch = options.fetch ?? globalThis.fetch
  let response: Response
  try {
    const extra = typeof options.headers === 'function' ? await options.headers() : options.headers
    const headers = new Headers(extra)
    headers.set('content-type', 'application/json')
    response = await doFetch(options.api, {
      method: 'POST',
      headers,
      body: JSON.stringify(chatRequestBody(options.conversationId, request.messages, trigger)),
      signal,
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    })
  } catch (error) {
    if (signal.aborted) return
    yield errorChunk(new HttpAdapterError({ code: 'network_error', message: `Could not reach ${options.api}: ${error instanceof Error ? error.message : String(error)}`, cause: error }))
    return
  }
  if (!response.ok || response.body === null) {
    const error = response.ok ? new HttpAdapterError({ code: 'empty_response', status: response.status, message: `${options.api} answered ${response.status} without a body.` }) : await errorOfResponse(response, options.api)
    if (!signal.aborted) yield errorChunk(error)
    return
  }
  try {
    yield* readTurn(options, response.body, user, answered, signal)
  } finally {
    // Stopped after the server took the turn: it runs to the end and is stored, so asking again
    // for this message must run it again (a regenerate), not fetch the cut-off answer. A broken
    // connection is not marked: its retry should get the stored answer.
    if (signal.aborted && user !== undefined) answered.set(user.id, user.content)
  }
}

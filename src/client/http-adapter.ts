import type { AdapterFactory, AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk, StreamSource } from '../contract/stream.js'
import type { Message } from '../contract/message.js'
import { uiPartToChunks } from '../protocol/decode-parts.js'
import { readUiMessageStream } from '../protocol/read-ui-message-stream.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { errorOfResponse, HttpAdapterError } from './http-adapter-error.js'
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
}

export function httpAdapter(options: HttpAdapterOptions): HttpAdapter {
  if (typeof options?.api !== 'string' || options.api === '') throw new TypeError('httpAdapter: pass { api }, the URL of the chatrail handler (e.g. "/api/chat").')
  if (typeof options.conversationId !== 'string' || options.conversationId === '') throw new TypeError('httpAdapter: pass { conversationId }, the id of the conversation on the server.')
  // user message id → the text this factory saw answered (undefined: not known). Asking again for
  // one with the same text is a regenerate; with other text it is an edit, which the server takes
  // as a submit of the same id with new text.
  const answered = new Map<string, string | undefined>()
  return {
    createSource: (request) => createHttpSource(options, answered, request),
    capabilities: { streaming: true, reasoning: true },
    noteAnswered: (userMessages) => {
      for (const message of userMessages) {
        if (typeof message === 'string') answered.set(message, undefined)
        else answered.set(message.id, message.content)
      }
    },
  }
}

function createHttpSource(options: HttpAdapterOptions, answered: Map<string, string | undefined>, request: AdapterRequest): StreamSource {
  const controller = new AbortController()
  return {
    stream: () => streamTurn(options, answered, request, controller.signal),
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

const ERROR_CODE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/

const errorChunk = (error: HttpAdapterError): StreamChunk => ({
  type: 'error',
  content: error.message,
  metadata: { error, code: error.code, ...(error.status === undefined ? {} : { status: error.status }) },
})

async function* streamTurn(options: HttpAdapterOptions, answered: Map<string, string | undefined>, request: AdapterRequest, signal: AbortSignal): AsyncGenerator<StreamChunk> {
  if (signal.aborted) return
  const user = lastUserMessage(request.messages)
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

async function* readTurn(options: HttpAdapterOptions, body: ReadableStream<Uint8Array>, user: Message | undefined, answered: Map<string, string | undefined>, signal: AbortSignal): AsyncGenerator<StreamChunk> {
  let failure: HttpAdapterError | undefined
  let snapshot: ChatrailPartData | undefined
  try {
    for await (const part of readUiMessageStream(body)) {
      if (signal.aborted) return
      if (part.type === 'data-chatrail') {
        snapshot = part.data
        options.onSnapshot?.(part.data)
        continue
      }
      if (part.type === 'error') {
        // the server follows an error part with the snapshot and `finish`: keep reading for the snapshot
        // chatrail/server's error parts are codes (`AGENT_ERROR`); the reader's own are sentences
        failure ??= new HttpAdapterError({ code: ERROR_CODE.test(part.errorText) ? part.errorText : 'stream_error', message: part.errorText })
        continue
      }
      if (part.type === 'finish') break
      if (failure === undefined) yield* uiPartToChunks(part)
    }
  } catch (error) {
    if (signal.aborted) return
    failure ??= new HttpAdapterError({ code: 'network_error', message: `The connection to ${options.api} broke mid-turn: ${error instanceof Error ? error.message : String(error)}`, cause: error })
  }
  if (signal.aborted) return
  if (failure) {
    yield errorChunk(failure)
    return
  }
  if (user !== undefined) answered.set(user.id, user.content)
  yield { type: 'done', ...(snapshot === undefined ? {} : { metadata: { chatrailSnapshot: snapshot } }) }
}

import type { ChatrailPartData } from '../protocol/ui-parts.js'
import { errorOfResponse, HttpAdapterError } from './http-adapter-error.js'
import type { HttpAdapterOptions } from './http-adapter.js'

/**
 * The client's side of a resumable stream (chatrail/server's `GET <api>/<id>/stream`): the
 * reconnect request, and the stored answer for when the server says nothing runs any more (the
 * turn ended between the cut and the reconnect). Browser-safe.
 */

/** `<api>/<id>/stream`, built as the AI SDK's `DefaultChatTransport` builds its reconnect URL (a query or fragment stays at the end). */
export function streamUrlOf(api: string, conversationId: string): string {
  const cut = api.search(/[?#]/)
  const path = cut === -1 ? api : api.slice(0, cut)
  const suffix = cut === -1 ? '' : api.slice(cut)
  return `${path.endsWith('/') ? path.slice(0, -1) : path}/${encodeURIComponent(conversationId)}/stream${suffix}`
}

export type Reconnect =
  | { readonly kind: 'stream'; readonly body: ReadableStream<Uint8Array> }
  /** 204: no turn runs (it finished, or never recorded a part). */
  | { readonly kind: 'none' }
  | { readonly kind: 'failed'; readonly error: HttpAdapterError }

const headersOf = async (options: HttpAdapterOptions): Promise<Headers> => new Headers(typeof options.headers === 'function' ? await options.headers() : options.headers)
const credentialsOf = (options: HttpAdapterOptions): RequestInit => (options.credentials === undefined ? {} : { credentials: options.credentials })

export async function reconnect(options: HttpAdapterOptions, signal: AbortSignal): Promise<Reconnect> {
  const doFetch = options.fetch ?? globalThis.fetch
  const url = streamUrlOf(options.api, options.conversationId)
  let response: Response
  try {
    response = await doFetch(url, { method: 'GET', headers: await headersOf(options), signal, ...credentialsOf(options) })
  } catch (error) {
    return { kind: 'failed', error: new HttpAdapterError({ code: 'network_error', message: `Could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`, cause: error }) }
  }
  if (response.status === 204) return { kind: 'none' }
  if (!response.ok) return { kind: 'failed', error: await errorOfResponse(response, url) }
  if (response.body === null) return { kind: 'failed', error: new HttpAdapterError({ code: 'empty_response', status: response.status, message: `${url} answered ${response.status} without a body.` }) }
  return { kind: 'stream', body: response.body }
}

export interface StoredAnswer {
  readonly text: string
  readonly chatrail?: ChatrailPartData
}

interface StoredConversationBody {
  messages?: Array<{ id?: unknown; role?: unknown; parts?: Array<{ type?: unknown; text?: unknown }> }>
  chatrail?: ChatrailPartData
  running?: boolean
}

/** The stored answer to `userMessageId` (GET `<api>?id=`), once its turn is stored; undefined while it still runs or when there is none. */
export async function storedAnswerOf(options: HttpAdapterOptions, userMessageId: string, signal: AbortSignal): Promise<StoredAnswer | undefined> {
  const doFetch = options.fetch ?? globalThis.fetch
  const url = `${options.api}${options.api.includes('?') ? '&' : '?'}id=${encodeURIComponent(options.conversationId)}`
  try {
    const response = await doFetch(url, { method: 'GET', headers: await headersOf(options), signal, ...credentialsOf(options) })
    if (!response.ok) return undefined
    const body = (await response.json()) as StoredConversationBody
    if (body.running === true) return undefined
    const messages = body.messages ?? []
    const at = messages.findIndex((message) => message.id === userMessageId)
    const answer = at < 0 ? undefined : messages[at + 1]
    if (answer?.role !== 'assistant') return undefined
    const text = (answer.parts ?? []).flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('')
    return { text, ...(body.chatrail ? { chatrail: body.chatrail } : {}) }
  } catch {
    return undefined
  }
}

/** Waits `ms` unless aborted first. */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })

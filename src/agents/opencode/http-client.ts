import { fetchSameOrigin, readCapped } from './bounded-fetch.js'
import { foreignListenerError } from './listener-owner.js'
import { OpencodeServerError } from './opencode-errors.js'
import { createSseParser } from './sse-parser.js'
import type { OpencodeEvent } from './sse-parser.js'

/**
 * A small client for `opencode serve` (HTTP + the `GET /event` stream), shapes per the server's
 * own OpenAPI spec (`GET /doc`; the parts used are saved in test/fixtures/opencode/openapi-subset.json).
 * Every request has a timeout, every failure is an `OpencodeServerError` naming the URL and the fix,
 * and Basic auth is sent when a password is given (or set in `OPENCODE_SERVER_PASSWORD`).
 * Bounded (issue 28): a response body is read up to `maxBodyBytes` (32 MiB) and refused past it,
 * an error body only for its first 4 KiB, one event of the stream up to `maxEventBytes` (16 MiB;
 * a larger one is skipped with a warning), and a redirect is followed only within the base URL's
 * origin, at most 5 times (bounded-fetch.ts). Before a request to a loopback URL, the socket that
 * would answer must be the current user's (Linux: listener-owner.ts); another user's is refused with
 * `OPENCODE_FOREIGN_LISTENER` and is sent nothing, not even the request.
 */

export interface OpencodeAuth {
  /** Default `OPENCODE_SERVER_USERNAME`, else `opencode` (the server's default). */
  username?: string
  password: string
}

export interface OpencodeClientOptions {
  baseUrl: string
  /** Basic auth; default from `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`; `null`: never. */
  auth?: OpencodeAuth | null
  /** Per request (not for the event stream). Default 10 s. */
  timeoutMs?: number
  /** Where `auth` defaults come from (default `process.env`). */
  env?: NodeJS.ProcessEnv
  /** The largest JSON response body read (default 32 MiB); a larger one is `OPENCODE_RESPONSE_TOO_LARGE`. */
  maxBodyBytes?: number
  /** The largest event of `GET /event` (default 16 MiB); a larger one is skipped with a warning. */
  maxEventBytes?: number
  /**
   * `true`: ask a loopback server whoever owns its socket (e.g. a container's port forwarded by a
   * root-owned proxy). Default `false`: another user's listener is refused, nothing sent to it.
   */
  trustAnyListener?: boolean
}

export interface SubscribeOptions {
  /** Each event the stream skipped (malformed, or over `maxEventBytes`), prefixed with the stream's URL. */
  onWarning?: (message: string) => void
}

export interface OpencodeClient {
  readonly baseUrl: string
  get: (path: string) => Promise<unknown>
  post: (path: string, body?: unknown) => Promise<unknown>
  /**
   * Opens `GET /event`; resolves once the server answered (so events after this are not missed),
   * then delivers events until `signal` aborts or the stream ends. `ended` resolves with the reason
   * (`undefined` when aborted), never rejects.
   */
  subscribe: (onEvent: (event: OpencodeEvent) => void, signal: AbortSignal, options?: SubscribeOptions) => Promise<{ ended: Promise<OpencodeServerError | undefined> }>
}

export const DEFAULT_OPENCODE_URL = 'http://127.0.0.1:4096'
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024
/** What an error status's body is read for: the first bytes of its message. */
const ERROR_BODY_BYTES = 4096

export function authFromEnv(env: NodeJS.ProcessEnv = process.env): OpencodeAuth | undefined {
  const password = env.OPENCODE_SERVER_PASSWORD
  if (password === undefined || password === '') return undefined
  const username = env.OPENCODE_SERVER_USERNAME
  return username ? { username, password } : { password }
}

export function createOpencodeClient(options: OpencodeClientOptions): OpencodeClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl)
  const auth = options.auth === null ? undefined : (options.auth ?? authFromEnv(options.env))
  const timeoutMs = options.timeoutMs ?? 10_000
  const headers: Record<string, string> = { accept: 'application/json' }
  if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.username ?? options.env?.OPENCODE_SERVER_USERNAME ?? 'opencode'}:${auth.password}`).toString('base64')}`

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  /** The listener check under way: requests made at once share one read of /proc/net. */
  let listenerCheck: Promise<OpencodeServerError | undefined> | undefined

  async function ensureOwnListener(): Promise<void> {
    if (options.trustAnyListener === true) return
    listenerCheck ??= foreignListenerError(baseUrl).finally(() => (listenerCheck = undefined))
    const foreign = await listenerCheck
    if (foreign) throw foreign
  }

  async function send(method: 'GET' | 'POST', url: string, init: { headers: Record<string, string>; body?: string; signal: AbortSignal }): Promise<Response> {
    await ensureOwnListener()
    let response: Response
    try {
      response = await fetchSameOrigin(url, { method, ...init })
    } catch (cause) {
      throw OpencodeServerError.isInstance(cause) ? cause : transportError(url, cause, timeoutMs)
    }
    await checkStatus(response, url, method)
    return response
  }

  async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    const url = `${baseUrl}${path}`
    const response = await send(method, url, { headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(timeoutMs) })
    const { text, over } = await readCapped(response, maxBodyBytes).catch((cause: unknown) => {
      throw transportError(url, cause, timeoutMs)
    })
    if (over) {
      throw new OpencodeServerError({
        code: 'OPENCODE_RESPONSE_TOO_LARGE',
        message: `${method} ${url} answered with a body over the ${maxBodyBytes.toLocaleString('en-US')}-byte cap: not read further.`,
        hint: 'Raise maxBodyBytes if this server really sends that much; an `opencode serve` answer is far smaller.',
        url,
        status: response.status,
      })
    }
    if (text === '') return undefined
    try {
      return JSON.parse(text) as unknown
    } catch (cause) {
      throw new OpencodeServerError({ code: 'OPENCODE_BAD_RESPONSE', message: `${method} ${url} answered with a body that is not JSON: ${text.slice(0, 80)}`, hint: 'Is this an `opencode serve` URL?', url, cause })
    }
  }

  return {
    baseUrl,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body ?? {}),
    async subscribe(onEvent, signal, subscribeOptions = {}) {
      const url = `${baseUrl}/event`
      const response = await send('GET', url, { headers: { ...headers, accept: 'text/event-stream' }, signal })
      const body = response.body
      if (body === null) throw new OpencodeServerError({ code: 'OPENCODE_BAD_RESPONSE', message: `GET ${url} answered without an event stream.`, url })
      const onWarning = subscribeOptions.onWarning
      const parser = createSseParser({
        ...(options.maxEventBytes !== undefined ? { maxEventBytes: options.maxEventBytes } : {}),
        ...(onWarning ? { onWarning: (message: string) => onWarning(`OpenCode event stream of ${url}: ${message}`) } : {}),
      })
      const ended = (async (): Promise<OpencodeServerError | undefined> => {
        try {
          const reader = body.getReader()
          for (;;) {
            const step = await reader.read()
            if (step.done) break
            for (const event of parser.push(step.value)) onEvent(event)
          }
          return signal.aborted ? undefined : lostError(url)
        } catch (cause) {
          return signal.aborted ? undefined : lostError(url, cause)
        }
      })()
      return { ended }
    },
  }
}

/** Checks a base URL: http(s), no query; the trailing slash dropped. */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch (cause) {
    throw new OpencodeServerError({ code: 'OPENCODE_INVALID_INPUT', message: `baseUrl ${JSON.stringify(baseUrl)} is not a URL.`, hint: `Pass the address \`opencode serve\` prints, e.g. ${DEFAULT_OPENCODE_URL}.`, url: String(baseUrl), cause })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpencodeServerError({ code: 'OPENCODE_INVALID_INPUT', message: `baseUrl ${JSON.stringify(baseUrl)} must be http or https.`, hint: `e.g. ${DEFAULT_OPENCODE_URL}`, url: baseUrl })
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** OpenCode session ids: `ses` then letters, digits, `_` or `-` (the spec's `^ses` pattern, bounded). */
export function checkSessionId(sessionId: string, url: string): string {
  if (/^ses[A-Za-z0-9_-]{1,128}$/.test(sessionId)) return sessionId
  throw new OpencodeServerError({ code: 'OPENCODE_INVALID_INPUT', message: `sessionId ${JSON.stringify(sessionId)} is not an OpenCode session id.`, hint: 'Session ids start with "ses_"; list them with GET /session or `chatrail sessions --opencode-url`.', url })
}

async function checkStatus(response: Response, url: string, method: string): Promise<void> {
  if (response.ok) return
  const { text } = await readCapped(response, ERROR_BODY_BYTES).catch(() => ({ text: '' }))
  if (response.status === 401) {
    throw new OpencodeServerError({
      code: 'OPENCODE_UNAUTHORIZED',
      message: `${method} ${url} was refused (401): the server wants a password and the one sent is missing or wrong.`,
      hint: 'Pass `auth: { password }` (and `username` if not "opencode"), or set OPENCODE_SERVER_PASSWORD / OPENCODE_SERVER_USERNAME to what the server was started with.',
      url,
      status: 401,
    })
  }
  throw new OpencodeServerError({ code: 'OPENCODE_HTTP_ERROR', message: `${method} ${url} failed with HTTP ${response.status}: ${text.slice(0, 200)}`, url, status: response.status })
}

function transportError(url: string, cause: unknown, timeoutMs: number): OpencodeServerError {
  if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) {
    return new OpencodeServerError({ code: 'OPENCODE_TIMEOUT', message: `${url} did not answer within ${timeoutMs} ms.`, hint: 'Is the server stuck? Raise timeoutMs for a slow machine.', url, cause })
  }
  return new OpencodeServerError({ code: 'OPENCODE_UNREACHABLE', message: `Nothing answers at ${url}.`, hint: 'Start it with `opencode serve --hostname 127.0.0.1 --port 4096`, or pass the URL it prints.', url, cause })
}

function lostError(url: string, cause?: unknown): OpencodeServerError {
  return new OpencodeServerError({ code: 'OPENCODE_UNREACHABLE', message: `The event stream of ${url} ended: the OpenCode server went away.`, hint: 'Restart `opencode serve`; the session history is kept in its database.', url, cause })
}

import { OpencodeServerError } from './opencode-errors.js'

/**
 * The two bounds of every request the OpenCode client makes (issue 28): redirects are followed by
 * hand (`redirect: 'manual'`), only within the origin the client was given and at most
 * `MAX_REDIRECTS` times, so a server can never send the client (and its password) elsewhere; and a
 * body is read only up to a byte cap, the rest cancelled, so a server can never make the client
 * hold more than the cap. Failures here are `OpencodeServerError`s; transport errors (refused,
 * timed out) are passed through for the client to name.
 */

export const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

export interface SameOriginRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  signal: AbortSignal
}

/** `fetch` that follows a redirect only to the same origin as `url`, `MAX_REDIRECTS` at most. */
export async function fetchSameOrigin(url: string, request: SameOriginRequest): Promise<Response> {
  const origin = new URL(url).origin
  let current = new URL(url)
  let method = request.method
  let body = request.body
  for (let hop = 0; ; hop += 1) {
    const headers = body === undefined ? request.headers : { ...request.headers, 'content-type': 'application/json' }
    const response = await fetch(current, { method, headers, ...(body === undefined ? {} : { body }), signal: request.signal, redirect: 'manual' })
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null
    if (location === null) return response
    await response.body?.cancel().catch(() => undefined)
    let next: URL
    try {
      next = new URL(location, current)
    } catch (cause) {
      throw new OpencodeServerError({ code: 'OPENCODE_REDIRECT_REFUSED', message: `${method} ${current.href} redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL.`, hint: 'Is this an `opencode serve` URL?', url, status: response.status, cause })
    }
    if (next.origin !== origin) {
      throw new OpencodeServerError({
        code: 'OPENCODE_REDIRECT_REFUSED',
        message: `${method} ${current.href} redirected to ${next.href}, another origin than ${origin}: not followed (the request carries your OpenCode credentials).`,
        hint: 'Pass the address the server really answers at as the base URL.',
        url,
        status: response.status,
      })
    }
    if (hop >= MAX_REDIRECTS) {
      throw new OpencodeServerError({ code: 'OPENCODE_REDIRECT_REFUSED', message: `${method} ${url} took more than ${MAX_REDIRECTS} redirects (last to ${next.href}).`, hint: 'The server redirects in a loop: is this an `opencode serve` URL?', url, status: response.status })
    }
    // The fetch spec's rule: 303 becomes GET, and so do 301/302 after a POST; 307/308 keep both.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET'
      body = undefined
    }
    current = next
  }
}

/**
 * At most `limit` bytes of the body, decoded as UTF-8; `over` when it had more (then the rest was
 * not read: the stream is cancelled). A `Content-Length` over the limit is over before any read.
 */
export async function readCapped(response: Response, limit: number): Promise<{ text: string; over: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? '')
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined)
    return { text: '', over: true }
  }
  const body = response.body
  if (body === null) return { text: '', over: false }
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  let over = false
  for (;;) {
    const step = await reader.read()
    if (step.done) break
    const room = limit - total
    if (step.value.byteLength > room) {
      chunks.push(step.value.subarray(0, room))
      total = limit
      over = true
      await reader.cancel().catch(() => undefined)
      break
    }
    chunks.push(step.value)
    total += step.value.byteLength
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks, total)), over }
}

/**
 * JSON responses and the one error shape every failure answers with:
 * `{ "error": { "code", "message", "path"? } }`. Messages are written here, never copied from an
 * internal error, so a response can't leak a stack trace, SQL or a provider's text.
 */

export class HttpError extends Error {
  readonly status: number
  readonly code: string
  /** The request field at fault, dotted (`messages.2.parts`). */
  readonly path: string | undefined
  readonly headers: Readonly<Record<string, string>>

  constructor(status: number, code: string, message: string, options: { path?: string; headers?: Record<string, string> } = {}) {
    super(message)
    this.name = 'HttpError'
    this.status = status
    this.code = code
    this.path = options.path
    this.headers = options.headers ?? {}
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } })
}

export function errorResponse(error: HttpError): Response {
  const body = { error: { code: error.code, message: error.message, ...(error.path === undefined ? {} : { path: error.path }) } }
  return jsonResponse(error.status, body, { ...error.headers })
}

/** A 400 naming the field at fault. */
export const badRequest = (path: string, message: string, code = 'invalid_body'): HttpError => new HttpError(400, code, message, { path })

import { ChatrailError, markErrorClass } from '../contract/errors.js'

/**
 * A turn the chatrail server did not answer: an HTTP error status (`status`, the server's `code`
 * such as `conversation_busy`, and for a 409 or 503 how long to wait), a network failure
 * (`code: 'network_error'`, no status), or an error part in the stream (the server's code:
 * `AGENT_ERROR`, `TURN_TIMEOUT`, `STORE_FAILED`, …).
 */
export class HttpAdapterError extends ChatrailError {
  readonly status: number | undefined
  /** Seconds the server asked to wait before retrying (`Retry-After`). */
  readonly retryAfter: number | undefined

  constructor(options: { code: string; message: string; status?: number; retryAfter?: number; hint?: string; cause?: unknown }) {
    super({ code: options.code, message: options.message, hint: options.hint, cause: options.cause })
    this.name = 'HttpAdapterError'
    this.status = options.status
    this.retryAfter = options.retryAfter
  }

  static override isInstance = markErrorClass(HttpAdapterError, 'HttpAdapterError')
}

/** An error response (`{ error: { code, message, path? } }` from chatrail/server) as an HttpAdapterError. */
export async function errorOfResponse(response: Response, api: string): Promise<HttpAdapterError> {
  let code = `http_${response.status}`
  let detail = ''
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown; path?: unknown } } | null
    if (typeof body?.error?.code === 'string') code = body.error.code
    if (typeof body?.error?.message === 'string') detail = body.error.message
    if (typeof body?.error?.path === 'string') detail += ` (at ${body.error.path})`
  } catch {
    // not chatrail's error body (a proxy's HTML page): the status says enough
  }
  const seconds = Number(response.headers.get('retry-after'))
  const retryAfter = Number.isFinite(seconds) && seconds > 0 ? seconds : undefined
  if (response.status === 409 && code === 'conversation_busy') {
    return new HttpAdapterError({
      code, status: 409, retryAfter,
      message: `The conversation is busy with another turn${retryAfter === undefined ? '' : `; retry in ${retryAfter} s`}.`,
      hint: 'Wait for the other turn (another tab or device) to finish, then retry.',
    })
  }
  return new HttpAdapterError({ code, status: response.status, retryAfter, message: `${api} answered ${response.status} ${code}${detail ? `: ${detail}` : ''}` })
}

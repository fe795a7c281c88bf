import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/**
 * Everything that can go wrong talking to `opencode serve`, as one named error with a `code`:
 * `OPENCODE_UNREACHABLE` (nothing answers at the URL, or the connection dropped),
 * `OPENCODE_UNAUTHORIZED` (401: wrong or missing password), `OPENCODE_HTTP_ERROR` (another
 * non-2xx status), `OPENCODE_TIMEOUT`, `OPENCODE_BAD_RESPONSE` (a body that is not the JSON the
 * spec promises), `OPENCODE_INVALID_INPUT` (a bad URL or session id, before any request).
 */
export class OpencodeServerError extends ChatrailError {
  readonly url: string
  readonly status: number | undefined

  constructor(options: { code: string; message: string; hint?: string; url: string; status?: number; cause?: unknown }) {
    super(options)
    this.name = 'OpencodeServerError'
    this.url = options.url
    this.status = options.status
  }

  static override isInstance = markErrorClass(OpencodeServerError, 'OpencodeServerError')
}

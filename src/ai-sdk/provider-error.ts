import { APICallError, RetryError } from 'ai'
import { ChatrailError, markErrorClass } from '../contract/errors.js'

/**
 * A model call that failed, as the error an `error` chunk carries (`metadata.error`): the
 * provider's HTTP status when there was one (429, 500, …), and a fixed code a server can show
 * without leaking the provider's text (`PROVIDER_ERROR`, `PROVIDER_TIMEOUT`,
 * `PROVIDER_STREAM_ERROR`). The AI SDK's own error is the `cause`.
 */
export class ModelProviderError extends ChatrailError {
  /** The provider's HTTP status, when the failure was an HTTP answer. */
  readonly status: number | undefined

  constructor(options: { code: string; message: string; status?: number; cause?: unknown }) {
    super({ code: options.code, message: options.message, cause: options.cause, hint: hintFor(options.status) })
    this.name = 'ModelProviderError'
    this.status = options.status
  }

  static override isInstance = markErrorClass(ModelProviderError, 'ModelProviderError')
}

function hintFor(status: number | undefined): string | undefined {
  if (status === 429) return 'The provider is rate limiting: retry later, or raise maxRetries.'
  if (status === 401 || status === 403) return "Check the provider's API key."
  if (status !== undefined && status >= 500) return 'The provider failed; retry later.'
  return undefined
}

/** The last API call error behind `error` (the AI SDK wraps exhausted retries in a RetryError). */
function apiCallErrorOf(error: unknown): APICallError | undefined {
  if (APICallError.isInstance(error)) return error
  if (RetryError.isInstance(error)) return apiCallErrorOf(error.lastError)
  return undefined
}

/** Any failure `streamText` reports (an `error` part, a throw) as a `ModelProviderError`. */
export function providerErrorOf(error: unknown): ModelProviderError {
  if (ModelProviderError.isInstance(error)) return error
  const call = apiCallErrorOf(error)
  if (call?.statusCode !== undefined) {
    return new ModelProviderError({ code: 'PROVIDER_ERROR', status: call.statusCode, message: `The model provider answered ${call.statusCode}: ${clip(call.message)}`, cause: error })
  }
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error'
  return new ModelProviderError({ code: 'PROVIDER_STREAM_ERROR', message: `The model stream failed: ${clip(text)}`, cause: error })
}

const MAX_MESSAGE = 300

/** A provider's message is a line, not a dump (a schema failure lists every union member); the whole error stays the `cause`. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= MAX_MESSAGE ? line : `${line.slice(0, MAX_MESSAGE - 1)}…`
}

import { ChatrailError } from '../../contract/errors.js'
import type { StreamChunk } from '../../contract/stream.js'

/**
 * The one `error` chunk a failed agent turn ends with (adapter invariant A3/A9): `content` is what
 * a chat shows (the message, then the hint), `metadata.error` a `ChatrailError` with `code` and
 * `hint` for programs.
 */
export function agentErrorChunk(options: {
  code: string
  message: string
  hint?: string
  metadata?: Record<string, unknown>
}): StreamChunk {
  const error = new ChatrailError({ code: options.code, message: options.message, ...(options.hint ? { hint: options.hint } : {}) })
  return {
    type: 'error',
    content: options.hint ? `${options.message} ${options.hint}` : options.message,
    metadata: { ...options.metadata, error, code: options.code },
  }
}

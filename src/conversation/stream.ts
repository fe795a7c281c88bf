import { ChatrailError } from '../contract/errors.js'
import type { StreamChunk } from '../contract/stream.js'

/**
 * Chunks the session emits itself. Every stream it returns ends with exactly one `done`, or with
 * one `error` carrying `metadata.error`, or because it was aborted (adapter invariant A3); error
 * text is a fixed, safe phrase, the cause rides in `metadata.error`. The phrases of the rare
 * failures (the agent's, a route's timeout) live with the lazy code that emits them
 * (agentic-generator.ts, route-timeout.ts).
 */

export const ROUTE_FAILED_MESSAGE = 'Sorry, that step failed. Nothing was changed; please try again.'
export const DISPOSED_MESSAGE = 'This conversation session was disposed.'

export function errorChunk(content: string, error: Error): StreamChunk {
  return { type: 'error', content, metadata: { error } }
}

/** An `Error` for `metadata.error`, wrapping a thrown non-error. */
export function asError(cause: unknown, code: string, message: string): Error {
  return cause instanceof Error ? cause : new ChatrailError({ code, message, cause })
}

export const DONE: StreamChunk = Object.freeze({ type: 'done' })

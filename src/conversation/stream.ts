import type { StreamChunk } from '../contract/stream.js'

/**
 * Chunks the session emits itself. Every stream it returns ends with exactly one `done`, or with
 * one `error` carrying `metadata.error`, or because it was aborted (adapter invariant A3); error
 * text is a fixed, safe phrase, the cause rides in `metadata.error`. The failures' chunks and
 * phrases live with the lazy code that emits them (turn-failures.ts, agentic-generator.ts,
 * route-timeout.ts): a turn that succeeds needs only `done`.
 */

export const DONE: StreamChunk = Object.freeze({ type: 'done' })

import type { UiPart } from './ui-parts.js'

/**
 * SSE framing of the UI message stream, as the AI SDK writes it (`JsonToSseTransformStream`): one
 * `data: <json>` event per part and `data: [DONE]` at the end. Writing needs no parser; reading
 * goes through eventsource-parser (./read-ui-message-stream.ts).
 */

export const SSE_DONE = 'data: [DONE]\n\n'

/** One part as an SSE event. JSON never contains a raw newline, so a part is always one `data:` line. */
export function encodeSseEvent(part: UiPart): string {
  return `data: ${JSON.stringify(part)}\n\n`
}

import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { readPart } from './part-schema.js'
import type { UiPart } from './ui-parts.js'

/**
 * Reads a UI message stream body into parts. Never throws for what the server sent: a malformed
 * event becomes an `error` part naming the problem and ends the stream, and so does a body that
 * ends with neither `finish` nor `[DONE]` (a dropped connection must read as an error, never as an
 * answer); `[DONE]` without `finish` reads as `finish`.
 * Part types this codec does not read (tools, sources, files) are skipped. Browser-safe.
 */
/** The `errorText` of the error part a body that ended before `finish` reads as (a cut connection, not the server's). */
export const STREAM_ENDED_EARLY = 'The UI message stream ended before "finish".'

export async function* readUiMessageStream(body: ReadableStream<Uint8Array>): AsyncGenerator<UiPart> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const queue: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (event) => queue.push(event) })
  let finished = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      parser.feed(decoder.decode(value, { stream: true }))
      while (queue.length > 0) {
        const event = queue.shift() as EventSourceMessage
        if (event.data === '[DONE]') {
          // an orderly end: the AI SDK's createUIMessageStream writes no `finish` of its own
          if (!finished) yield { type: 'finish' }
          return
        }
        const reading = readPart(event.data)
        if (reading.kind === 'ignored') continue
        if (reading.kind === 'invalid') {
          yield { type: 'error', errorText: `Malformed UI message stream: ${reading.reason}.` }
          return
        }
        if (reading.part.type === 'finish') finished = true
        yield reading.part
      }
    }
    if (!finished) yield { type: 'error', errorText: STREAM_ENDED_EARLY }
  } finally {
    void reader.cancel().catch(() => undefined)
  }
}

import { isRecord } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'

/**
 * The Server-Sent Events framing of OpenCode's `GET /event` (checked against `opencode serve`
 * 1.18.33: one `data: {"id","type","properties"}` line per event, a blank line after each, no
 * `event:` names). Bytes arrive in arbitrary chunks, so a line (and a UTF-8 character) may be split
 * anywhere: text is decoded in streaming mode and an unfinished line waits for its newline. `data:`
 * lines of one event are joined with `\n` (the SSE rule); comments (`:`), `event:`, `id:` and
 * `retry:` fields are ignored. An event whose data is not a JSON object with a string `type` is
 * skipped and described in `warnings`, never thrown.
 */

export interface OpencodeEvent {
  type: string
  properties: JsonRecord
}

export interface SseParser {
  /** Feeds bytes (or already-decoded text); returns the events completed by them, in order. */
  push: (chunk: Uint8Array | string) => OpencodeEvent[]
  /** Malformed events skipped so far (the first 20 described, then a count). */
  warnings: () => string[]
}

const MAX_DETAILED_WARNINGS = 20

export function createSseParser(): SseParser {
  const decoder = new TextDecoder()
  let pending = ''
  let data: string[] = []
  let malformed = 0
  const described: string[] = []

  function dispatch(out: OpencodeEvent[]): void {
    if (data.length === 0) return
    const text = data.join('\n')
    data = []
    const event = parseEvent(text)
    if (event) out.push(event)
    else {
      malformed += 1
      if (described.length < MAX_DETAILED_WARNINGS) described.push(`skipped a malformed event: ${text.slice(0, 80)}`)
    }
  }

  return {
    push(chunk) {
      pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
      const out: OpencodeEvent[] = []
      let newline = pending.indexOf('\n')
      while (newline >= 0) {
        const line = pending.slice(0, newline).replace(/\r$/, '')
        pending = pending.slice(newline + 1)
        if (line === '') dispatch(out)
        else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
        newline = pending.indexOf('\n')
      }
      return out
    },
    warnings: () => (malformed > described.length ? [...described, `${malformed - described.length} more malformed events`] : [...described]),
  }
}

/** One event's data, or `undefined` when it is not an OpenCode event object. */
export function parseEvent(text: string): OpencodeEvent | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  return toEvent(value)
}

/** Narrows a parsed value to an event: an object with a string `type`; `properties` defaults to `{}`. */
export function toEvent(value: unknown): OpencodeEvent | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined
  return { type: value.type, properties: isRecord(value.properties) ? value.properties : {} }
}

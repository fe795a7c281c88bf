import { isRecord } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'

/**
 * The Server-Sent Events framing of OpenCode's `GET /event` (checked against `opencode serve`
 * 1.18.33: one `data: {"id","type","properties"}` line per event, a blank line after each, no
 * `event:` names). Bytes arrive in arbitrary chunks, so a line (and a UTF-8 character) may be split
 * anywhere: text is decoded in streaming mode and an unfinished line waits for its end (LF, CRLF or
 * CR, as the SSE spec allows). `data:` lines of one event are joined with `\n`; comments (`:`),
 * `event:`, `id:` and `retry:` fields are ignored. An event whose data is not a JSON object with a
 * string `type` is skipped and described in `warnings`, never thrown.
 *
 * Linear and bounded (issue 28): each chunk is scanned once, from where the last one ended (an
 * unfinished line is kept as a list of pieces, joined once when it ends), and an event whose lines
 * grow past `maxEventBytes` is dropped as soon as it does: its bytes are counted, not kept, up to
 * the blank line that ends it, then it is reported and the stream goes on. `eventsource-parser`
 * (a dependency elsewhere) was measured and not used here: its CR path searches the rest of its
 * input again for every line (one 64 KiB chunk of short lines holding a CR: 0.4 s), and its buffer
 * cap stops the parser instead of skipping one event.
 */

export interface OpencodeEvent {
  type: string
  properties: JsonRecord
}

export interface SseParserOptions {
  /** The most UTF-8 bytes one event's lines may hold (default 16 MiB); a larger event is skipped with a warning. */
  maxEventBytes?: number
  /** Called once per skipped event (malformed or over the cap), with the text `warnings()` keeps. */
  onWarning?: (message: string) => void
}

export interface SseParser {
  /** Feeds bytes (or already-decoded text); returns the events completed by them, in order. */
  push: (chunk: Uint8Array | string) => OpencodeEvent[]
  /** Events skipped so far, malformed or over the cap (the first 20 described, then a count). */
  warnings: () => string[]
}

export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024
const MAX_DETAILED_WARNINGS = 20
const LF = 10
const CR = 13

export function createSseParser(options: SseParserOptions = {}): SseParser {
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES
  const decoder = new TextDecoder()
  /** The pieces of the line not ended yet (empty while skipping). */
  let pieces: string[] = []
  /** Characters of the current line so far (also while skipping: a blank line is one of 0). */
  let lineChars = 0
  let data: string[] = []
  /** Bytes of the current event's lines so far, line ends counted as one. */
  let eventBytes = 0
  let skipping = false
  /** The last chunk ended in CR: an LF first in the next one belongs to it. */
  let pendingCr = false
  let skipped = 0
  const described: string[] = []
  let out: OpencodeEvent[] = []

  function warn(message: string): void {
    skipped += 1
    if (described.length < MAX_DETAILED_WARNINGS) described.push(message)
    options.onWarning?.(message)
  }

  function grow(text: string): void {
    lineChars += text.length
    eventBytes += Buffer.byteLength(text)
    if (skipping) return
    if (eventBytes > maxEventBytes) {
      // Over the cap: drop what was kept and only count until the event ends.
      skipping = true
      pieces = []
      data = []
      return
    }
    pieces.push(text)
  }

  function endLine(): void {
    if (lineChars === 0) return endEvent()
    eventBytes += 1
    if (!skipping && eventBytes > maxEventBytes) {
      skipping = true
      data = []
    }
    if (!skipping) {
      const line = pieces.length === 1 ? (pieces[0] ?? '') : pieces.join('')
      if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5))
    }
    pieces = []
    lineChars = 0
  }

  function endEvent(): void {
    if (skipping) warn(`skipped an event of ${eventBytes.toLocaleString('en-US')} bytes: over the ${maxEventBytes.toLocaleString('en-US')}-byte cap (maxEventBytes)`)
    else if (data.length > 0) {
      const text = data.join('\n')
      const event = parseEvent(text)
      if (event) out.push(event)
      else warn(`skipped a malformed event: ${text.slice(0, 80)}`)
    }
    data = []
    eventBytes = 0
    skipping = false
  }

  function scan(text: string): void {
    let at = 0
    if (pendingCr) {
      pendingCr = false
      if (text.charCodeAt(0) === LF) at = 1
    }
    // One pass over the chunk's characters, in plain code. The line ends were found by an indexOf per
    // line (two searches, LF and CR), which went quadratic once Node 20 optimized the loop (200,000
    // short lines and one CR: 20 ms, then 1.2–2.3 s; test/agents/opencode/sse-parser-optimized). A
    // character at a time is linear however V8 compiles it: ≈10 ms for those lines.
    let start = at
    const length = text.length
    for (; at < length; at += 1) {
      const code = text.charCodeAt(at)
      if (code !== LF && code !== CR) continue
      if (at > start) grow(text.slice(start, at))
      endLine()
      if (code === CR) {
        if (at + 1 === length) pendingCr = true
        else if (text.charCodeAt(at + 1) === LF) at += 1
      }
      start = at + 1
    }
    if (start < length) grow(text.slice(start))
  }

  return {
    push(chunk) {
      out = []
      scan(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
      return out
    },
    warnings: () => (skipped > described.length ? [...described, `${skipped - described.length} more skipped events`] : [...described]),
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

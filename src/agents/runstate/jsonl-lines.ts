/**
 * Splits a JSONL byte stream into parsed records, in bounded memory, with one policy for every
 * reader (the plain-file tail and the decompressed `.zst` stream share it, so they cannot drift):
 *
 * - A line is the bytes before a `\n`. A blank line is skipped silently; a line that is not JSON is
 *   skipped and described in `warnings` (the first `maxDetailedWarnings`, then counted).
 * - A line longer than `maxLineBytes` is skipped without being parsed or held: its bytes are
 *   counted, not kept, so memory stays at one line cap whatever the file holds. Once its newline
 *   arrives the caller's `onOverCap` hears of it and `warnings` names it (line, byte offset, size).
 *   Line numbers and offsets go on counting past it, so the next line is read as usual.
 * - Bytes after the last newline are an unfinished line, held until its newline arrives; `finish`
 *   takes them as a last line when the stream is known to be complete (a finished `.zst` file).
 *
 * The outcome depends only on the bytes, never on how they were split into `push` calls: the same
 * records, over-cap lines and warnings, in the same order, with the same numbers.
 */

export interface JsonlRecord {
  /** The parsed JSON value of the line (any JSON; callers check its shape). */
  value: unknown
  /** 1-based line number (counted from where reading started). */
  line: number
  /** Byte offset where the line starts. */
  offset: number
}

/** A line skipped for being longer than the cap. */
export interface JsonlOverCapLine {
  line: number
  /** Byte offset where the line starts. */
  offset: number
  /** Its length in bytes, without the newline. */
  bytes: number
}

export interface JsonlLineHandlers {
  /** Called once per well-formed line, in order. */
  onRecord: (record: JsonlRecord) => void
  /**
   * Raw mode: when given, each complete line within the cap comes here unparsed instead (a view
   * valid only during the call; `terminated` is false for a last line taken by `finish`), and
   * `onRecord` is not called. For readers that keep lines to parse later (a tail window).
   */
  onLine?: (bytes: Buffer, line: number, offset: number, terminated: boolean) => void
  /** Called once per over-cap line, in order, when its newline arrives. */
  onOverCap?: (line: JsonlOverCapLine) => void
}

export interface JsonlLineReaderOptions {
  /** Names the source in warnings (a path). */
  source: string
  maxLineBytes: number
  maxDetailedWarnings: number
  /** Offset of the first byte pushed (a window over the end of a file); line numbers count from it. */
  startOffset?: number
  /** How offsets are named in warnings ("byte", or "decompressed byte" for a `.zst` stream). */
  offsetUnit?: string
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
const NEWLINE = 0x0a

export class JsonlLineReader {
  /** End of the last complete line. */
  offset: number
  /** Complete lines consumed (blank, malformed and over-cap ones included). */
  lines = 0
  private pending: Buffer[] = []
  private pendingLength = 0
  /** Bytes of the current line when it is already over the cap (then nothing is held). */
  private overCapLength: number | undefined
  private malformed = 0
  private overCap = 0
  private readonly details: string[] = []
  private readonly overCapDetails: string[] = []

  constructor(private readonly options: JsonlLineReaderOptions) {
    this.offset = options.startOffset ?? 0
  }

  /** Bytes of the unfinished last line (held, or only counted when it is over the cap). */
  get pendingBytes(): number {
    return this.overCapLength ?? this.pendingLength
  }

  /** Feeds the next bytes. `chunk` may be reused by the caller once this returns. */
  push(chunk: Uint8Array, handlers: JsonlLineHandlers): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    let start = 0
    for (;;) {
      const nl = bytes.indexOf(NEWLINE, start)
      if (nl === -1) break
      this.endLine(bytes.subarray(start, nl), handlers)
      start = nl + 1
    }
    if (start < bytes.length) this.hold(bytes.subarray(start))
  }

  /** The stream is complete: an unfinished last line is a line (a finished file needs no final newline). */
  finish(handlers: JsonlLineHandlers): void {
    if (this.pendingBytes === 0) return
    this.endLine(Buffer.alloc(0), handlers, false)
  }

  /** Counts a line known to be over the cap without its bytes (a replayed window), and reports it. */
  skipLine(bytes: number, handlers: JsonlLineHandlers, terminated = true): void {
    const line = this.lines + 1
    const offset = this.offset
    this.lines = line
    this.offset += bytes + (terminated ? 1 : 0)
    this.skipOverCap({ line, offset, bytes }, handlers)
  }

  /** Malformed and over-cap lines, described (the first few of each), then counted. */
  warnings(): string[] {
    const out = [...this.details]
    if (this.malformed > this.details.length) out.push(`${this.options.source}: ${this.malformed - this.details.length} more malformed lines skipped.`)
    out.push(...this.overCapDetails)
    if (this.overCap > this.overCapDetails.length) out.push(`${this.options.source}: ${this.overCap - this.overCapDetails.length} more over-cap lines skipped.`)
    return out
  }

  malformedLines(): number {
    return this.malformed
  }

  overCapLines(): number {
    return this.overCap
  }

  private hold(rest: Buffer): void {
    if (this.overCapLength !== undefined) {
      this.overCapLength += rest.length
      return
    }
    if (this.pendingLength + rest.length > this.options.maxLineBytes) {
      // Over the cap: from here on the line is only counted.
      this.overCapLength = this.pendingLength + rest.length
      this.pending = []
      this.pendingLength = 0
      return
    }
    // Copied: the caller may reuse `chunk`.
    this.pending.push(Buffer.from(rest))
    this.pendingLength += rest.length
  }

  private endLine(tail: Buffer, handlers: JsonlLineHandlers, terminated = true): void {
    const line = this.lines + 1
    const offset = this.offset
    const length = (this.overCapLength ?? this.pendingLength) + tail.length
    this.lines = line
    this.offset += length + (terminated ? 1 : 0)
    if (this.overCapLength !== undefined || length > this.options.maxLineBytes) {
      this.overCapLength = undefined
      this.pending = []
      this.pendingLength = 0
      this.skipOverCap({ line, offset, bytes: length }, handlers)
      return
    }
    const bytes = this.pendingLength > 0 ? Buffer.concat([...this.pending, tail]) : tail
    this.pending = []
    this.pendingLength = 0
    if (handlers.onLine !== undefined) handlers.onLine(bytes, line, offset, terminated)
    else this.parse(bytes, line, offset, handlers)
  }

  private skipOverCap(skipped: JsonlOverCapLine, handlers: JsonlLineHandlers): void {
    this.overCap += 1
    if (this.overCapDetails.length < this.options.maxDetailedWarnings) {
      const { source, maxLineBytes, offsetUnit = 'byte' } = this.options
      this.overCapDetails.push(`${source}: line ${skipped.line} (at ${offsetUnit} ${skipped.offset}) is ${skipped.bytes} bytes, over the ${maxLineBytes}-byte line cap; skipped, not parsed.`)
    }
    handlers.onOverCap?.(skipped)
  }

  private parse(bytes: Buffer, line: number, offset: number, handlers: JsonlLineHandlers): void {
    if (isBlank(bytes)) return
    let text = bytes.toString('utf8')
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      this.malformed += 1
      if (this.details.length < this.options.maxDetailedWarnings) {
        this.details.push(`${this.options.source}: line ${line} (at ${this.options.offsetUnit ?? 'byte'} ${offset}) is not valid JSON; skipped (${describeBad(bytes)}).`)
      }
      return
    }
    handlers.onRecord({ value, line, offset })
  }
}

/** The text of the placeholder message a reader puts where an over-cap line was. */
export function overCapPlaceholder(skipped: JsonlOverCapLine, maxLineBytes: number): string {
  return `Line ${skipped.line} (${mib(skipped.bytes)}) is longer than the ${mib(maxLineBytes)} line cap and was skipped; what it said is not shown.`
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`
}

function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false
  }
  return true
}

function describeBad(bytes: Buffer): string {
  const head = bytes.subarray(0, 40).toString('utf8').replace(/\s+/g, ' ')
  return `${bytes.length} bytes starting ${JSON.stringify(head)}`
}

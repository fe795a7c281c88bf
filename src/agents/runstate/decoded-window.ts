import { streamFile } from './file-stream.js'
import { JsonlLineReader } from './jsonl-lines.js'
import type { JsonlCursor } from './jsonl-tail.js'
import type { JsonlLineHandlers } from './jsonl-lines.js'
import { firstLineLimit, parseFirstLine, resolveReadWindow, windowNote } from './read-window.js'
import type { AppliedWindow, ReadWindowOptions } from './read-window.js'

/**
 * Reads a whole stream (a `.jsonl.zst` file, decompressed block by block) under the window policy
 * a plain file gets (read-window.ts), applied to the decoded bytes, whose length is only known at
 * the end. While decoding, nothing is parsed and only the last `max(tailWindowBytes, maxLineBytes)
 * + 1` decoded bytes are kept (plus the first line's). At the end the lines are split and parsed:
 * for a stream at least `windowThresholdBytes` long, the first line and the lines of the last
 * `tailWindowBytes`, as a plain file of that size is read; below it, every line (exactly a plain
 * full read of the same bytes), from the kept bytes when they hold the whole stream, else by
 * decoding the file a second time straight into the lines (so a stream between the window and the
 * threshold costs two decodes, never the threshold's worth of memory). So a decompression bomb
 * (53 KB that decode to 600 MB of tiny lines) costs decoding time, one window's parsing and one
 * window's bytes, never one object per line of the whole stream.
 *
 * `maxDecompressedBytes` still stops decoding (a warning says so); a corrupt or truncated stream
 * keeps what decoded. A last line without a newline is a line: the stream is complete.
 */
export interface DecodedWindowOptions extends ReadWindowOptions {
  compressed: boolean
  maxLineBytes: number
  /** Decoding stops after this many bytes, with a warning (default: no cap). */
  maxDecompressedBytes?: number
  /** Names the file in warnings and in the window note ("rollout"). */
  what: string
  maxDetailedWarnings?: number
}

export interface DecodedWindowResult {
  /** Decoded bytes and lines consumed (lines counted from the window when one applied). */
  cursor: JsonlCursor
  window?: AppliedWindow
  /** The window note, decoding problems (cap, corrupt stream), then malformed and over-cap lines. */
  warnings: string[]
}

const MiB = 1024 * 1024
const NEWLINE = 0x0a

export async function readDecodedWindow(path: string, options: DecodedWindowOptions, handlers: JsonlLineHandlers): Promise<DecodedWindowResult> {
  const policy = resolveReadWindow(options)
  const unit = options.compressed ? 'decompressed byte' : 'byte'
  const headLimit = firstLineLimit(policy, options.maxLineBytes)
  const retain = Math.max(policy.tailBytes, options.maxLineBytes) + 1
  // Decoded blocks, oldest first from `first`; `keptFrom` is the stream offset of blocks[first].
  let blocks: Buffer[] = []
  let first = 0
  let keptBytes = 0
  let keptFrom = 0
  let total = 0
  let lastLineStart = 0
  const head: Buffer[] = []
  let headBytes = 0

  const capped = options.maxDecompressedBytes === undefined ? {} : { maxBytes: options.maxDecompressedBytes }
  const stream = await streamFile(path, { compressed: options.compressed, ...capped }, (chunk) => {
    // Copied: a plain file's read buffer is reused.
    const block = Buffer.from(chunk)
    if (headBytes < headLimit) {
      const part = block.subarray(0, headLimit - headBytes)
      head.push(part)
      headBytes += part.length
    }
    const nl = block.lastIndexOf(NEWLINE)
    if (nl !== -1) lastLineStart = total + nl + 1
    blocks.push(block)
    keptBytes += block.length
    total += block.length
    while (first < blocks.length - 1 && keptBytes - (blocks[first] as Buffer).length >= retain) {
      keptBytes -= (blocks[first] as Buffer).length
      keptFrom += (blocks[first] as Buffer).length
      blocks[first] = EMPTY
      first += 1
    }
    if (first > 1024 && first * 2 > blocks.length) {
      blocks = blocks.slice(first)
      first = 0
    }
  })
  const windowed = total >= policy.thresholdBytes
  const kept = blocks.slice(first)
  blocks = []

  const notes: string[] = []
  if (stream.error !== undefined) {
    const message = stream.error instanceof Error ? stream.error.message : String(stream.error)
    notes.push(`${path}: zstd stream could not be fully decoded (${message}); showing what was.`)
  }
  if (stream.ended === 'capped') notes.push(`${path}: decoding stopped after ${mib(options.maxDecompressedBytes ?? total)} MiB of decompressed data (the cap); the rest of the ${options.what} is not shown.`)

  const from = windowed ? windowStart(kept, keptFrom, Math.max(0, total - policy.tailBytes), lastLineStart) : 0
  const lines = new JsonlLineReader({ source: path, maxLineBytes: options.maxLineBytes, maxDetailedWarnings: options.maxDetailedWarnings ?? 20, startOffset: from, offsetUnit: unit })
  let window: AppliedWindow | undefined
  if (from > 0) {
    window = { from, totalBytes: total, note: windowNote(path, options.what, { from, totalBytes: total, decompressed: options.compressed }) }
    const firstLine = parseFirstLine(Buffer.concat(head))
    if (firstLine !== undefined) handlers.onRecord({ value: firstLine, line: 1, offset: 0 })
  }
  if (!windowed && keptFrom > 0) {
    // Below the threshold but longer than what was kept: decode again, every line in order.
    await streamFile(path, { compressed: options.compressed, maxBytes: total }, (chunk) => {
      lines.push(chunk, handlers)
    })
    lines.finish(handlers)
  } else if (from < keptFrom) {
    // The rest of the stream is one line that began before the kept bytes: longer than the line cap.
    lines.skipLine(total - from, handlers, false)
  } else {
    let at = keptFrom
    for (const block of kept) {
      if (at + block.length > from) lines.push(at >= from ? block : block.subarray(from - at), handlers)
      at += block.length
    }
    lines.finish(handlers)
  }
  return {
    cursor: { offset: lines.offset, lines: lines.lines },
    ...(window === undefined ? {} : { window }),
    warnings: [...(window === undefined ? [] : [window.note]), ...notes, ...lines.warnings()],
  }
}

const EMPTY = Buffer.alloc(0)

/**
 * As a plain file's window (file-window.ts): the first line start at or after `position`, else
 * (the rest is one unfinished line) the start of that line, `lastLineStart`.
 */
function windowStart(kept: readonly Buffer[], keptFrom: number, position: number, lastLineStart: number): number {
  if (position === 0) return 0
  let at = keptFrom
  const searchFrom = position - 1
  for (const block of kept) {
    if (at + block.length > searchFrom) {
      const nl = block.indexOf(NEWLINE, Math.max(0, searchFrom - at))
      if (nl !== -1) return at + nl + 1
    }
    at += block.length
  }
  return lastLineStart
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1)
}

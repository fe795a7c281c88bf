import { open } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { TranscriptGoneError } from './errors.js'
import { JsonlLineTooLongError } from './jsonl-line-too-long-error.js'

/**
 * An incremental reader for an append-only JSONL file (a Claude Code transcript, a Codex rollout).
 *
 * Each `read()` consumes only the bytes appended since the previous one, in bounded memory: the
 * file is streamed in fixed-size chunks and only the current line is ever held. A partial last
 * line (no newline yet) is buffered until its newline arrives, so any split of the same bytes into
 * appends yields exactly the records one full read yields, in the same order, with the same line
 * numbers and the same warnings. A file that was truncated, replaced (new inode) or rewritten in
 * place is detected and read again from byte 0 after `onReset` fires.
 */

export interface JsonlRecord {
  /** The parsed JSON value of the line (any JSON; callers check its shape). */
  value: unknown
  /** 1-based line number in the file. */
  line: number
  /** Byte offset where the line starts. */
  offset: number
}

export type JsonlResetReason = 'truncated' | 'replaced' | 'rewritten'

export interface JsonlCursor {
  /** Bytes consumed: always the end of the last complete line. */
  offset: number
  /** Complete lines consumed (blank and malformed ones included). */
  lines: number
}

export interface JsonlReadHandlers {
  /** Called once per well-formed line, in file order. */
  onRecord: (record: JsonlRecord) => void
  /** Called before any record when the file no longer continues what was read; drop derived state. */
  onReset?: (reason: JsonlResetReason) => void
}

export interface JsonlReadResult {
  reset?: JsonlResetReason
  /** Well-formed records delivered by this read. */
  records: number
  cursor: JsonlCursor
  /** Bytes of an unfinished last line held back until its newline arrives. */
  pendingBytes: number
}

export interface JsonlTailOptions {
  /** A line longer than this is a `JsonlLineTooLongError` (default 16 MiB). */
  maxLineBytes?: number
  /** Read size (default 1 MiB). */
  chunkBytes?: number
  /** Malformed lines described one by one before they are only counted (default 20). */
  maxDetailedWarnings?: number
  /**
   * Start reading at this byte offset instead of 0 (a window over the end of a very large file). It
   * must be a line start (0 or just past a newline); line numbers count from it. A reset reads the
   * new file from byte 0.
   */
  startOffset?: number
}

export interface JsonlTail {
  readonly path: string
  /**
   * Reads what was appended since the last call. Throws `TranscriptGoneError` when the file does not
   * exist and `JsonlLineTooLongError` for an over-cap line; other I/O errors pass through.
   * Calls must not overlap (await each one).
   */
  read: (handlers: JsonlReadHandlers) => Promise<JsonlReadResult>
  cursor: () => JsonlCursor
  /** Malformed lines skipped so far, described; cumulative since the last reset. */
  warnings: () => string[]
  /** Count of malformed lines skipped since the last reset. */
  malformedLines: () => number
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024
const DEFAULT_CHUNK_BYTES = 1024 * 1024
const HEAD_FINGERPRINT_BYTES = 256
const NEWLINE = 0x0a

interface TailState {
  /** End of the last complete line. */
  offset: number
  lines: number
  /** Bytes read from the file so far (offset + pending). */
  readOffset: number
  pending: Buffer[]
  pendingBytes: number
  identity?: { dev: number; ino: number }
  head: Buffer
  malformed: number
  details: string[]
}

function freshState(start = 0): TailState {
  return { offset: start, lines: 0, readOffset: start, pending: [], pendingBytes: 0, head: Buffer.alloc(0), malformed: 0, details: [] }
}

export function createJsonlTail(path: string, options: JsonlTailOptions = {}): JsonlTail {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES
  const maxDetailed = options.maxDetailedWarnings ?? 20
  let state = freshState(options.startOffset ?? 0)

  function consumeLine(bytes: Buffer, handlers: JsonlReadHandlers): boolean {
    const line = state.lines + 1
    const offset = state.offset
    state.lines = line
    state.offset += bytes.length + 1
    if (isBlank(bytes)) return false
    let text = bytes.toString('utf8')
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      state.malformed += 1
      if (state.details.length < maxDetailed) {
        state.details.push(`${path}: line ${line} (at byte ${offset}) is not valid JSON; skipped (${describeBad(bytes)}).`)
      }
      return false
    }
    handlers.onRecord({ value, line, offset })
    return true
  }

  function tooLong(): JsonlLineTooLongError {
    return new JsonlLineTooLongError({ path, line: state.lines + 1, offset: state.offset, limit: maxLineBytes })
  }

  async function detectReset(handle: FileHandle, size: number, dev: number, ino: number): Promise<JsonlResetReason | undefined> {
    if (state.identity === undefined) return undefined
    if (state.identity.dev !== dev || state.identity.ino !== ino) return 'replaced'
    if (size < state.readOffset) return 'truncated'
    if (state.head.length > 0) {
      const now = Buffer.alloc(state.head.length)
      await readFully(handle, now, 0)
      if (!now.equals(state.head)) return 'rewritten'
    }
    if (state.offset > 0) {
      const last = Buffer.alloc(1)
      await readFully(handle, last, state.offset - 1)
      if (last[0] !== NEWLINE) return 'rewritten'
    }
    return undefined
  }

  async function read(handlers: JsonlReadHandlers): Promise<JsonlReadResult> {
    let handle: FileHandle
    try {
      handle = await open(path, 'r')
    } catch (error) {
      if (isNotFound(error)) throw new TranscriptGoneError(path, error)
      throw error
    }
    try {
      const stat = await handle.stat()
      const reset = await detectReset(handle, stat.size, stat.dev, stat.ino)
      if (reset !== undefined) {
        state = freshState()
        handlers.onReset?.(reset)
      }
      state.identity = { dev: stat.dev, ino: stat.ino }
      let records = 0
      // Read only up to the size seen now: bytes appended meanwhile belong to the next read.
      const end = stat.size
      const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, end - state.readOffset)))
      while (state.readOffset < end) {
        const want = Math.min(chunk.length, end - state.readOffset)
        const { bytesRead } = await handle.read(chunk, 0, want, state.readOffset)
        if (bytesRead === 0) break
        state.readOffset += bytesRead
        let start = 0
        for (;;) {
          const nl = chunk.indexOf(NEWLINE, start)
          if (nl === -1 || nl >= bytesRead) break
          let bytes = chunk.subarray(start, nl)
          if (state.pendingBytes > 0) {
            if (state.pendingBytes + bytes.length > maxLineBytes) throw tooLong()
            bytes = Buffer.concat([...state.pending, bytes])
            state.pending = []
            state.pendingBytes = 0
          } else if (bytes.length > maxLineBytes) {
            throw tooLong()
          }
          if (consumeLine(bytes, handlers)) records += 1
          start = nl + 1
        }
        if (start < bytesRead) {
          const rest = bytesRead - start
          if (state.pendingBytes + rest > maxLineBytes) throw tooLong()
          // Copy: `chunk` is reused by the next read.
          state.pending.push(Buffer.from(chunk.subarray(start, bytesRead)))
          state.pendingBytes += rest
        }
      }
      if (state.head.length < HEAD_FINGERPRINT_BYTES && state.offset > state.head.length) {
        const head = Buffer.alloc(Math.min(HEAD_FINGERPRINT_BYTES, state.offset))
        await readFully(handle, head, 0)
        state.head = head
      }
      return { ...(reset ? { reset } : {}), records, cursor: cursorOf(state), pendingBytes: state.pendingBytes }
    } finally {
      await handle.close()
    }
  }

  return {
    path,
    read,
    cursor: () => cursorOf(state),
    warnings: () => {
      const extra = state.malformed - state.details.length
      return extra > 0 ? [...state.details, `${path}: ${extra} more malformed lines skipped.`] : [...state.details]
    },
    malformedLines: () => state.malformed,
  }
}

function cursorOf(state: TailState): JsonlCursor {
  return { offset: state.offset, lines: state.lines }
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

async function readFully(handle: FileHandle, into: Buffer, position: number): Promise<void> {
  let done = 0
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done)
    if (bytesRead === 0) break
    done += bytesRead
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT'
}

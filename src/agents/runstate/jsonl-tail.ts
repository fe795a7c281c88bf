import type { FileHandle } from 'node:fs/promises'
import { TranscriptGoneError } from './errors.js'
import { openRegularFile } from './regular-file.js'
import { planFileWindow } from './file-window.js'
import { DEFAULT_MAX_LINE_BYTES, JsonlLineReader } from './jsonl-lines.js'
import type { JsonlLineHandlers, JsonlOverCapLine, JsonlRecord } from './jsonl-lines.js'
import { resolveReadWindow, windowNote } from './read-window.js'
import type { AppliedWindow, ReadWindowOptions } from './read-window.js'

export { DEFAULT_MAX_LINE_BYTES }
export type { AppliedWindow, JsonlOverCapLine, JsonlRecord }

/**
 * An incremental reader for an append-only JSONL file (a Claude Code transcript, a Codex rollout).
 *
 * Each `read()` consumes only the bytes appended since the previous one, in bounded memory: the
 * file is streamed in fixed-size chunks and only the current line is ever held. A partial last
 * line (no newline yet) is buffered until its newline arrives, so any split of the same bytes into
 * appends yields exactly the records one full read yields, in the same order, with the same line
 * numbers and the same warnings. A line longer than `maxLineBytes` is skipped, reported to
 * `onOverCap` and named in `warnings`, by full and incremental reads alike (jsonl-lines.ts). A file
 * that was truncated, replaced (new inode) or rewritten in place is detected and read again from
 * byte 0 after `onReset` fires. "Rewritten" is checked on every read: the first 256 bytes and the
 * last 256 bytes read must be unchanged, and a file that did not grow must keep the mtime and
 * ctime it had (an append-only writer only changes them by growing it). A rewrite that keeps the
 * length, both ends and both times (within the file system's timestamp granularity) is not seen.
 *
 * A file at least `windowThresholdBytes` long when reading starts (the first read, or after a
 * reset) is read through windows (read-window.ts, the policy every reader shares): its first line
 * is delivered as line 1, then the lines of its last `tailWindowBytes`, numbered from the window;
 * `warnings()` starts with the note that says so. A file that grows past the threshold while it is
 * tailed goes on being tailed: only the appended bytes are read.
 */

export type JsonlResetReason = 'truncated' | 'replaced' | 'rewritten'

export interface JsonlCursor {
  /** Bytes consumed: always the end of the last complete line. */
  offset: number
  /** Complete lines consumed (blank, malformed and over-cap ones included). */
  lines: number
}

export interface JsonlReadHandlers extends JsonlLineHandlers {
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

export interface JsonlTailOptions extends ReadWindowOptions {
  /** A line longer than this is skipped and reported, never parsed or held (default 16 MiB). */
  maxLineBytes?: number
  /** Read size (default 1 MiB). */
  chunkBytes?: number
  /** Malformed lines described one by one before they are only counted (default 20). */
  maxDetailedWarnings?: number
  /** Names the file in the window note ("transcript", "rollout", "event log"; default "file"). */
  what?: string
}

export interface JsonlTail {
  readonly path: string
  /**
   * Reads what was appended since the last call. Throws `TranscriptGoneError` when the file does not
   * exist; other I/O errors pass through. Over-cap lines are skipped (`onOverCap`, `warnings`).
   * Calls must not overlap (await each one).
   */
  read: (handlers: JsonlReadHandlers) => Promise<JsonlReadResult>
  cursor: () => JsonlCursor
  /** Malformed and over-cap lines skipped so far, described; cumulative since the last reset. */
  warnings: () => string[]
  /** Count of malformed lines skipped since the last reset. */
  malformedLines: () => number
  /** Count of over-cap lines skipped since the last reset. */
  overCapLines: () => number
  /** The window this read went through, since the last reset; `undefined` for a whole read. */
  window: () => AppliedWindow | undefined
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024
const FINGERPRINT_BYTES = 256

interface TailState {
  lines: JsonlLineReader
  /** Bytes read from the file so far (the lines' offset + the unfinished line). */
  readOffset: number
  identity?: { dev: number; ino: number }
  /** The first bytes of the file, and the last bytes of complete lines read, as read. */
  head: Buffer
  end: Buffer
  /** The times the file had when it was last read (a file that did not grow must keep them). */
  times?: { mtimeMs: number; ctimeMs: number }
  window?: AppliedWindow
}

export function createJsonlTail(path: string, options: JsonlTailOptions = {}): JsonlTail {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES
  const maxDetailedWarnings = options.maxDetailedWarnings ?? 20
  const policy = resolveReadWindow(options)
  const freshState = (startOffset = 0): TailState => ({
    lines: new JsonlLineReader({ source: path, maxLineBytes, maxDetailedWarnings, startOffset }),
    readOffset: startOffset,
    head: Buffer.alloc(0),
    end: Buffer.alloc(0),
  })
  let state = freshState()

  /** A fresh state over a large file: start at its tail window and deliver its first line first. */
  async function openWindow(handle: FileHandle, size: number, counting: JsonlLineHandlers): Promise<void> {
    if (size < policy.thresholdBytes) return
    const plan = await planFileWindow(handle, size, policy, maxLineBytes)
    if (plan.from === 0) return
    state = freshState(plan.from)
    state.window = { from: plan.from, totalBytes: size, note: windowNote(path, options.what ?? 'file', { from: plan.from, totalBytes: size }) }
    if (plan.firstLine !== undefined) counting.onRecord({ value: plan.firstLine, line: 1, offset: 0 })
  }

  async function detectReset(handle: FileHandle, stat: { size: number; dev: number; ino: number; mtimeMs: number; ctimeMs: number }): Promise<JsonlResetReason | undefined> {
    if (state.identity === undefined) return undefined
    if (state.identity.dev !== stat.dev || state.identity.ino !== stat.ino) return 'replaced'
    if (stat.size < state.readOffset) return 'truncated'
    if (stat.size === state.readOffset && state.times !== undefined && (stat.mtimeMs !== state.times.mtimeMs || stat.ctimeMs !== state.times.ctimeMs)) return 'rewritten'
    if (!(await unchanged(handle, state.head, 0))) return 'rewritten'
    if (!(await unchanged(handle, state.end, state.lines.offset - state.end.length))) return 'rewritten'
    return undefined
  }

  async function read(handlers: JsonlReadHandlers): Promise<JsonlReadResult> {
    let handle: FileHandle
    try {
      handle = await openRegularFile(path)
    } catch (error) {
      if (isNotFound(error)) throw new TranscriptGoneError(path, error)
      throw error
    }
    try {
      const stat = await handle.stat()
      const reset = await detectReset(handle, stat)
      if (reset !== undefined) {
        state = freshState()
        handlers.onReset?.(reset)
      }
      let records = 0
      const counting: JsonlLineHandlers = {
        onRecord: (record) => {
          records += 1
          handlers.onRecord(record)
        },
        ...(handlers.onOverCap === undefined ? {} : { onOverCap: handlers.onOverCap }),
      }
      if (state.identity === undefined) await openWindow(handle, stat.size, counting)
      state.identity = { dev: stat.dev, ino: stat.ino }
      state.times = { mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs }
      // Read only up to the size seen now: bytes appended meanwhile belong to the next read.
      const end = stat.size
      const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(1, end - state.readOffset)))
      while (state.readOffset < end) {
        const want = Math.min(chunk.length, end - state.readOffset)
        const { bytesRead } = await handle.read(chunk, 0, want, state.readOffset)
        if (bytesRead === 0) break
        state.readOffset += bytesRead
        state.lines.push(chunk.subarray(0, bytesRead), counting)
      }
      await takeFingerprints(handle)
      return { ...(reset ? { reset } : {}), records, cursor: cursorOf(state), pendingBytes: state.lines.pendingBytes }
    } finally {
      await handle.close()
    }
  }

  /** The first bytes of the file and the last bytes of the complete lines read, to compare next time. */
  async function takeFingerprints(handle: FileHandle): Promise<void> {
    const complete = state.lines.offset
    if (state.head.length < FINGERPRINT_BYTES && complete > state.head.length) {
      const head = Buffer.alloc(Math.min(FINGERPRINT_BYTES, complete))
      await readFully(handle, head, 0)
      state.head = head
    }
    const endLength = Math.min(FINGERPRINT_BYTES, complete)
    const end = Buffer.alloc(endLength)
    await readFully(handle, end, complete - endLength)
    state.end = end
  }

  return {
    path,
    read,
    cursor: () => cursorOf(state),
    warnings: () => (state.window === undefined ? state.lines.warnings() : [state.window.note, ...state.lines.warnings()]),
    malformedLines: () => state.lines.malformedLines(),
    overCapLines: () => state.lines.overCapLines(),
    window: () => state.window,
  }
}

function cursorOf(state: TailState): JsonlCursor {
  return { offset: state.lines.offset, lines: state.lines.lines }
}

/** True when the file still holds `expected` at `position`. */
async function unchanged(handle: FileHandle, expected: Buffer, position: number): Promise<boolean> {
  if (expected.length === 0) return true
  const now = Buffer.alloc(expected.length)
  await readFully(handle, now, position)
  return now.equals(expected)
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

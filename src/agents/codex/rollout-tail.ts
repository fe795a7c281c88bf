import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { TranscriptGoneError } from '../runstate/errors.js'
import { openRegularFile } from '../runstate/regular-file.js'
import { overCapPlaceholder } from '../runstate/jsonl-lines.js'
import { createJsonlTail, DEFAULT_MAX_LINE_BYTES } from '../runstate/jsonl-tail.js'
import type { JsonlTail } from '../runstate/jsonl-tail.js'
import { fileSignature, isNotFound, readCompressedRollout } from './compressed-rollout.js'
import { parseRolloutFileName } from './rollout-file-name.js'
import { createRolloutFold } from './rollout-fold.js'
import type { RolloutFold } from './rollout-fold.js'

/**
 * An incremental reader of one rollout: each `read()` folds only the bytes appended since the
 * previous one (partial last lines wait for their newline; truncation or replacement of the file
 * starts over), and returns exactly what a full read of the same bytes returns.
 *
 * A file at least `windowThresholdBytes` long when first read is read through two windows: the
 * first line (`session_meta`, for the id) and the last `tailWindowBytes`, aligned to a line start;
 * the chat then holds the window's messages only (seqs count from the window) and says so in
 * `warnings`. A `.jsonl.zst` path, or a plain path whose file was compressed in place, is decoded
 * whole whenever it changed.
 */
export interface RolloutTailOptions {
  /** A line longer than this is skipped: a placeholder message and a warning say so (default 16 MiB). */
  maxLineBytes?: number
  /** Files at least this large are read through windows (default 128 MiB). */
  windowThresholdBytes?: number
  /** Bytes at the end of a large file that are folded (default 16 MiB). */
  tailWindowBytes?: number
  /** Bytes at the start of a large file searched for the `session_meta` line (default 1 MiB). */
  headWindowBytes?: number
  /** Tool outputs longer than this are cut (default 4096). */
  maxToolOutputChars?: number
  /** `.zst` rollouts: decoding stops after this many decompressed bytes, with a warning (default 1 GiB). */
  maxDecompressedBytes?: number
}

export interface RolloutTail {
  readonly path: string
  /**
   * Folds what was appended and returns the chat. Throws `TranscriptGoneError` when the file no
   * longer exists; other I/O errors pass through. Over-cap lines are skipped, with a placeholder.
   * Calls must not overlap.
   */
  read: () => Promise<AgentChat>
}

const MiB = 1024 * 1024

export function createRolloutTail(path: string, options: RolloutTailOptions = {}): RolloutTail {
  const threshold = options.windowThresholdBytes ?? 128 * MiB
  const tailWindow = options.tailWindowBytes ?? 16 * MiB
  const headWindow = options.headWindowBytes ?? MiB
  const fileSessionId = parseRolloutFileName(basename(path))?.id
  const foldOptions = {
    source: path,
    ...(fileSessionId === undefined ? {} : { fileSessionId }),
    ...(options.maxToolOutputChars === undefined ? {} : { maxToolOutputChars: options.maxToolOutputChars }),
  }
  const newFold = (): RolloutFold => createRolloutFold(foldOptions)

  let fold = newFold()
  let lines: JsonlTail | undefined
  let windowNote: string | undefined
  let compressed = path.endsWith('.zst') ? { path, signature: '', chat: undefined as AgentChat | undefined } : undefined

  async function start(): Promise<JsonlTail> {
    const size = await sizeOf(path)
    if (size < threshold) return createJsonlTail(path, jsonlOptions(0))
    const from = await lineStartNear(path, size - tailWindow)
    // The first line, for the id: within the head window and the line cap (an over-cap line is
    // never parsed), and only when the window does not hold it already.
    const meta = from > 0 ? await readFirstLine(path, Math.min(headWindow, (options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES) + 1)) : undefined
    if (meta !== undefined) fold.push(meta, 1)
    windowNote = `${path}: ${mib(size)} MiB rollout read through windows (the session_meta line and the last ${mib(size - from)} MiB); earlier messages are not shown and seqs count from the window.`
    return createJsonlTail(path, jsonlOptions(from))
  }

  function jsonlOptions(startOffset: number): Parameters<typeof createJsonlTail>[1] {
    return { startOffset, ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }) }
  }

  async function readCompressed(state: NonNullable<typeof compressed>): Promise<AgentChat> {
    const signature = await fileSignature(state.path)
    if (state.chat && signature === state.signature) return state.chat
    state.chat = await readCompressedRollout(state.path, options)
    state.signature = signature
    return state.chat
  }

  async function read(): Promise<AgentChat> {
    if (compressed) return readCompressed(compressed)
    try {
      lines ??= await start()
      const result = await lines.read({
        onReset: () => {
          fold = newFold()
          windowNote = undefined
        },
        onRecord: (record) => fold.push(record.value, record.line),
        onOverCap: (skipped) => fold.placeholder(overCapPlaceholder(skipped, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)),
      })
      return fold.snapshot(result.cursor, windowNote ? [windowNote, ...lines.warnings()] : lines.warnings())
    } catch (error) {
      // Codex may compress a finished rollout in place: the thread is not gone, it moved.
      if (TranscriptGoneError.isInstance(error) && existsSync(`${path}.zst`)) {
        compressed = { path: `${path}.zst`, signature: '', chat: undefined }
        return readCompressed(compressed)
      }
      throw error
    }
  }

  return { path, read }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size
  } catch (error) {
    if (isNotFound(error)) throw new TranscriptGoneError(path, error)
    throw error
  }
}

/** The first line's JSON, when it ends within `limit` bytes and parses. */
async function readFirstLine(path: string, limit: number): Promise<unknown> {
  const handle = await openRegularFile(path)
  try {
    const buffer = Buffer.alloc(limit)
    const { bytesRead } = await handle.read(buffer, 0, limit, 0)
    const nl = buffer.subarray(0, bytesRead).indexOf(0x0a)
    if (nl === -1) return undefined
    try {
      return JSON.parse(buffer.subarray(0, nl).toString('utf8').replace(/^\uFEFF/, '')) as unknown
    } catch {
      return undefined
    }
  } finally {
    await handle.close()
  }
}

/** The first line start at or after `position`; if the rest is one unfinished line, the start of that line. */
async function lineStartNear(path: string, position: number): Promise<number> {
  const handle = await openRegularFile(path)
  try {
    const size = (await handle.stat()).size
    const chunk = Buffer.alloc(64 * 1024)
    for (let at = Math.max(0, position - 1); at < size; at += chunk.length) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, at)
      const nl = chunk.subarray(0, bytesRead).indexOf(0x0a)
      if (nl !== -1) return at + nl + 1
      if (bytesRead === 0) break
    }
    return lastLineStartBefore(handle, position, chunk)
  } finally {
    await handle.close()
  }
}

async function lastLineStartBefore(handle: FileHandle, position: number, chunk: Buffer): Promise<number> {
  for (let end = position; end > 0; end -= chunk.length) {
    const from = Math.max(0, end - chunk.length)
    const { bytesRead } = await handle.read(chunk, 0, end - from, from)
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a)
    if (nl !== -1) return from + nl + 1
  }
  return 0
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1)
}

import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { TranscriptGoneError } from '../runstate/errors.js'
import { streamFile } from '../runstate/file-stream.js'
import { DEFAULT_MAX_LINE_BYTES, JsonlLineReader, overCapPlaceholder } from '../runstate/jsonl-lines.js'
import type { JsonlLineHandlers } from '../runstate/jsonl-lines.js'
import { parseRolloutFileName } from './rollout-file-name.js'
import { createRolloutFold } from './rollout-fold.js'
import type { RolloutFold } from './rollout-fold.js'

/**
 * `rollout-….jsonl.zst`: Codex compresses rollouts it no longer writes, so there is nothing to
 * tail. Each read re-folds the whole file when its size, mtime or inode changed and serves the
 * previous chat otherwise. The stream is decompressed block by block (fzstd, pure JS: Node 20 has
 * no built-in zstd) and read under the same caps as a plain rollout, applied to the decompressed
 * bytes (a 53 KB file can decode to gigabytes):
 *
 * - lines over `maxLineBytes` are skipped with a placeholder and a warning (jsonl-lines.ts);
 * - a stream at least `windowThresholdBytes` long is read through windows, as a plain file is: the
 *   first line (`session_meta`) and the lines of its last `tailWindowBytes`. Lines are folded as
 *   they come until the threshold is crossed; from then on only the raw lines of the last window
 *   are kept (bounded memory) and folded at the end;
 * - decoding stops after `maxDecompressedBytes` (default 1 GiB), with a warning: a bomb costs at
 *   most that much decoding time, and what was decoded is shown.
 *
 * The cursor counts decompressed bytes.
 */
export interface CompressedRolloutOptions {
  maxLineBytes?: number
  maxToolOutputChars?: number
  windowThresholdBytes?: number
  tailWindowBytes?: number
  headWindowBytes?: number
  maxDecompressedBytes?: number
}

const MiB = 1024 * 1024
const UNIT = 'decompressed byte'

interface WindowLine {
  offset: number
  /** Raw bytes (a copy), or the length of an over-cap line that was not kept. */
  bytes: Buffer | number
  terminated: boolean
}

export async function readCompressedRollout(path: string, options: CompressedRolloutOptions = {}): Promise<AgentChat> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const threshold = options.windowThresholdBytes ?? 128 * MiB
  const tailWindow = options.tailWindowBytes ?? 16 * MiB
  const maxDecompressed = options.maxDecompressedBytes ?? 1024 * MiB
  const headWindow = options.headWindowBytes ?? MiB
  const newFold = (): RolloutFold => {
    const fileSessionId = parseRolloutFileName(basename(path))?.id
    return createRolloutFold({
      source: path,
      ...(fileSessionId === undefined ? {} : { fileSessionId }),
      ...(options.maxToolOutputChars === undefined ? {} : { maxToolOutputChars: options.maxToolOutputChars }),
    })
  }
  const readerFor = (startOffset: number): JsonlLineReader => new JsonlLineReader({ source: path, maxLineBytes, maxDetailedWarnings: 20, startOffset, offsetUnit: UNIT })

  let fold = newFold()
  const folding: JsonlLineHandlers = {
    onRecord: (record) => fold.push(record.value, record.line),
    onOverCap: (skipped) => fold.placeholder(overCapPlaceholder(skipped, maxLineBytes)),
  }
  // Every line passes through `lines` (raw mode): folded at once below the threshold, and kept in
  // the window, whose oldest lines leave as newer ones arrive.
  const lines = readerFor(0)
  const direct = readerFor(0)
  let firstLine: unknown
  let windowed = false
  // A queue: lines leave from `first` on, and the array is compacted now and then (linear overall).
  let window: WindowLine[] = []
  let first = 0
  const keep = (entry: WindowLine, length: number): void => {
    window.push(entry)
    // The window starts at the first line that starts at or after (end - tailWindow).
    const end = entry.offset + length + (entry.terminated ? 1 : 0)
    while (window.length > first && (window[first] as WindowLine).offset < end - tailWindow) first += 1
    if (first > 1024 && first * 2 > window.length) {
      window = window.slice(first)
      first = 0
    }
  }
  const raw: JsonlLineHandlers = {
    onRecord: () => undefined,
    onLine: (bytes, line, offset, terminated) => {
      if (!windowed) {
        direct.push(bytes, folding)
        if (terminated) direct.push(NEWLINE, folding)
        else direct.finish(folding)
        // As for a plain file: the first line, when it ends within the head window.
        if (line === 1 && terminated && bytes.length < headWindow) firstLine = parseQuietly(bytes)
      }
      keep({ offset, bytes: Buffer.from(bytes), terminated }, bytes.length)
    },
    onOverCap: (skipped) => {
      if (!windowed) direct.skipLine(skipped.bytes, folding)
      keep({ offset: skipped.offset, bytes: skipped.bytes, terminated: true }, skipped.bytes)
    },
  }

  let stream
  try {
    stream = await streamFile(path, { compressed: true, maxBytes: maxDecompressed }, (chunk) => {
      lines.push(chunk, raw)
      if (!windowed && lines.offset + lines.pendingBytes >= threshold) windowed = true
    })
  } catch (error) {
    if (isNotFound(error)) throw new TranscriptGoneError(path, error)
    throw error
  }
  // The file is finished (or cut): a last line without a newline is complete, not half-written.
  lines.finish(raw)

  const notes: string[] = []
  if (stream.error !== undefined) {
    const message = stream.error instanceof Error ? stream.error.message : String(stream.error)
    notes.push(`${path}: zstd stream could not be fully decoded (${message}); showing what was.`)
  }
  if (stream.ended === 'capped') {
    notes.push(`${path}: decoding stopped after ${mib(maxDecompressed)} MiB of decompressed data (the cap); the rest of the rollout is not shown.`)
  }
  if (!windowed) return fold.snapshot({ offset: lines.offset, lines: lines.lines }, [...notes, ...direct.warnings()])

  // Windowed: a fresh fold of the first line and the window, as a plain file of this size is read.
  fold = newFold()
  const kept = window.slice(first)
  const from = kept[0]?.offset ?? lines.offset
  if (firstLine !== undefined && from > 0) fold.push(firstLine, 1)
  const replay = readerFor(from)
  for (const entry of kept) {
    if (typeof entry.bytes === 'number') replay.skipLine(entry.bytes, folding, entry.terminated)
    else {
      replay.push(entry.bytes, folding)
      if (entry.terminated) replay.push(NEWLINE, folding)
      else replay.finish(folding)
    }
  }
  notes.unshift(`${path}: ${mib(lines.offset)} MiB rollout (decompressed) read through windows (the session_meta line and the last ${mib(lines.offset - from)} MiB); earlier messages are not shown and seqs count from the window.`)
  return fold.snapshot({ offset: lines.offset, lines: replay.lines }, [...notes, ...replay.warnings()])
}

const NEWLINE = Buffer.from([0x0a])

function parseQuietly(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as unknown
  } catch {
    return undefined
  }
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1)
}

/** Size, mtime and inode: what says a compressed file must be folded again. */
export async function fileSignature(path: string): Promise<string> {
  try {
    const info = await stat(path)
    return `${info.ino}:${info.size}:${info.mtimeMs}`
  } catch (error) {
    if (isNotFound(error)) throw new TranscriptGoneError(path, error)
    throw error
  }
}

export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT'
}

import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { TranscriptGoneError } from '../runstate/errors.js'
import { readDecodedWindow } from '../runstate/decoded-window.js'
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from '../runstate/read-window.js'
import { DEFAULT_MAX_LINE_BYTES, overCapPlaceholder } from '../runstate/jsonl-lines.js'
import type { JsonlLineHandlers } from '../runstate/jsonl-lines.js'
import { parseRolloutFileName } from './rollout-file-name.js'
import { createRolloutFold } from './rollout-fold.js'

/**
 * `rollout-….jsonl.zst`: Codex compresses rollouts it no longer writes, so there is nothing to
 * tail. Each read re-folds the whole file when its size, mtime or inode changed and serves the
 * previous chat otherwise. The stream is decompressed block by block (fzstd, pure JS: Node 20 has
 * no built-in zstd) and read under the same caps as a plain rollout, applied to the decompressed
 * bytes (a 53 KB file can decode to gigabytes):
 *
 * - lines over `maxLineBytes` are skipped with a placeholder and a warning (jsonl-lines.ts);
 * - a stream at least `windowThresholdBytes` long is read through windows, as a plain file is: the
 *   first line (`session_meta`) and the lines of its last `tailWindowBytes`. Nothing is parsed
 *   while decoding; only the decoded bytes of the last window are kept, and parsed at the end
 *   (runstate/decoded-window.ts, shared with `chatrail inspect`);
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

export async function readCompressedRollout(path: string, options: CompressedRolloutOptions = {}): Promise<AgentChat> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const fileSessionId = parseRolloutFileName(basename(path))?.id
  const fold = createRolloutFold({
    source: path,
    ...(fileSessionId === undefined ? {} : { fileSessionId }),
    ...(options.maxToolOutputChars === undefined ? {} : { maxToolOutputChars: options.maxToolOutputChars }),
  })
  const folding: JsonlLineHandlers = {
    onRecord: (record) => fold.push(record.value, record.line),
    onOverCap: (skipped) => fold.placeholder(overCapPlaceholder(skipped, maxLineBytes)),
  }
  try {
    const read = await readDecodedWindow(
      path,
      {
        compressed: true,
        what: 'rollout',
        maxLineBytes,
        maxDecompressedBytes: options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES,
        ...(options.windowThresholdBytes === undefined ? {} : { windowThresholdBytes: options.windowThresholdBytes }),
        ...(options.tailWindowBytes === undefined ? {} : { tailWindowBytes: options.tailWindowBytes }),
        ...(options.headWindowBytes === undefined ? {} : { headWindowBytes: options.headWindowBytes }),
      },
      folding,
    )
    return fold.snapshot(read.cursor, read.warnings)
  } catch (error) {
    if (isNotFound(error)) throw new TranscriptGoneError(path, error)
    throw error
  }
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

import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { TranscriptGoneError } from '../runstate/errors.js'
import { overCapPlaceholder } from '../runstate/jsonl-lines.js'
import { createJsonlTail, DEFAULT_MAX_LINE_BYTES } from '../runstate/jsonl-tail.js'
import type { JsonlTail } from '../runstate/jsonl-tail.js'
import { fileSignature, readCompressedRollout } from './compressed-rollout.js'
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
 * `warnings` (the window policy every reader shares: runstate/read-window.ts, applied by the
 * JSONL tail). A `.jsonl.zst` path, or a plain path whose file was compressed in place, is decoded
 * again whenever it changed, under the same window on its decoded stream (compressed-rollout.ts).
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

export function createRolloutTail(path: string, options: RolloutTailOptions = {}): RolloutTail {
  const fileSessionId = parseRolloutFileName(basename(path))?.id
  const foldOptions = {
    source: path,
    ...(fileSessionId === undefined ? {} : { fileSessionId }),
    ...(options.maxToolOutputChars === undefined ? {} : { maxToolOutputChars: options.maxToolOutputChars }),
  }
  const newFold = (): RolloutFold => createRolloutFold(foldOptions)

  let fold = newFold()
  // The shared window policy (runstate/read-window.ts): the session_meta line and the last window.
  const lines: JsonlTail = createJsonlTail(path, {
    what: 'rollout',
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.windowThresholdBytes === undefined ? {} : { windowThresholdBytes: options.windowThresholdBytes }),
    ...(options.tailWindowBytes === undefined ? {} : { tailWindowBytes: options.tailWindowBytes }),
    ...(options.headWindowBytes === undefined ? {} : { headWindowBytes: options.headWindowBytes }),
  })
  let compressed = path.endsWith('.zst') ? { path, signature: '', chat: undefined as AgentChat | undefined } : undefined

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
      const result = await lines.read({
        onReset: () => {
          fold = newFold()
        },
        onRecord: (record) => fold.push(record.value, record.line),
        onOverCap: (skipped) => fold.placeholder(overCapPlaceholder(skipped, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)),
      })
      return fold.snapshot(result.cursor, lines.warnings())
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

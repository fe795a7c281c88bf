import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { Decompress } from 'fzstd'
import type { AgentChat } from '../runstate/agent-chat.js'
import { TranscriptGoneError } from '../runstate/errors.js'
import { DEFAULT_MAX_LINE_BYTES } from '../runstate/jsonl-tail.js'
import { JsonlLineTooLongError } from '../runstate/jsonl-line-too-long-error.js'
import { parseRolloutFileName } from './rollout-file-name.js'
import { createRolloutFold } from './rollout-fold.js'

/**
 * `rollout-….jsonl.zst`: Codex compresses rollouts it no longer writes, so there is nothing to
 * tail. Each read re-folds the whole file when its size, mtime or inode changed and serves the
 * previous chat otherwise. The stream is decompressed chunk by chunk (fzstd, pure JS, works on
 * Node 20, which has no built-in zstd) and split into lines in bounded memory; the cursor counts
 * decompressed bytes.
 */
export async function readCompressedRollout(
  path: string,
  options: { maxLineBytes?: number; maxToolOutputChars?: number } = {},
): Promise<AgentChat> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const fileSessionId = parseRolloutFileName(basename(path))?.id
  const fold = createRolloutFold({
    source: path,
    ...(fileSessionId === undefined ? {} : { fileSessionId }),
    ...(options.maxToolOutputChars === undefined ? {} : { maxToolOutputChars: options.maxToolOutputChars }),
  })
  const bad: string[] = []
  let malformed = 0
  let offset = 0
  let lines = 0
  let pending: Buffer[] = []
  let pendingBytes = 0

  const consume = (bytes: Buffer, terminated: boolean): void => {
    lines += 1
    const lineOffset = offset
    offset += bytes.length + (terminated ? 1 : 0)
    const text = bytes.toString('utf8').trim()
    if (text === '') return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      malformed += 1
      if (bad.length < 20) bad.push(`${path}: line ${lines} (at decompressed byte ${lineOffset}) is not valid JSON; skipped.`)
      return
    }
    fold.push(value, lines)
  }

  const onData = (data: Uint8Array): void => {
    const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    let start = 0
    for (;;) {
      const nl = chunk.indexOf(0x0a, start)
      if (nl === -1) break
      const piece = chunk.subarray(start, nl)
      if (pendingBytes + piece.length > maxLineBytes) throw new JsonlLineTooLongError({ path, line: lines + 1, offset, limit: maxLineBytes })
      consume(pendingBytes > 0 ? Buffer.concat([...pending, piece]) : piece, true)
      pending = []
      pendingBytes = 0
      start = nl + 1
    }
    if (start < chunk.length) {
      if (pendingBytes + chunk.length - start > maxLineBytes) throw new JsonlLineTooLongError({ path, line: lines + 1, offset, limit: maxLineBytes })
      pending.push(Buffer.from(chunk.subarray(start)))
      pendingBytes += chunk.length - start
    }
  }

  const decompress = new Decompress(onData)
  try {
    for await (const chunk of createReadStream(path)) decompress.push(chunk as Buffer)
    decompress.push(new Uint8Array(0), true)
    // The file is finished: a last line without a newline is complete, not half-written.
    if (pendingBytes > 0) consume(Buffer.concat(pending), false)
  } catch (error) {
    if (isNotFound(error)) throw new TranscriptGoneError(path, error)
    if (JsonlLineTooLongError.isInstance(error)) throw error
    // A truncated or corrupt stream: keep what decoded, and say so.
    bad.unshift(`${path}: zstd stream could not be fully decoded (${error instanceof Error ? error.message : String(error)}); showing what was.`)
  }
  const warnings = malformed > bad.length ? [...bad, `${path}: ${malformed - bad.length} more malformed lines skipped.`] : bad
  return fold.snapshot({ offset, lines }, warnings)
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

import type { FileHandle } from 'node:fs/promises'
import { firstLineLimit, parseFirstLine } from './read-window.js'
import type { ReadWindow } from './read-window.js'

/**
 * Plans the window of a plain file (read-window.ts) through an open handle: where its tail window
 * starts and its first line. Reads at most the head window and a few 64 KiB probes around the
 * window's start, whatever the file's size.
 */
export interface FileWindowPlan {
  /** The first line start at or after `size - tailBytes`; when the rest is one unfinished line, that line's start. */
  from: number
  /** The first line's JSON, when the window does not hold it, it ends within the head window and parses. */
  firstLine?: unknown
}

export async function planFileWindow(handle: FileHandle, size: number, window: ReadWindow, maxLineBytes: number): Promise<FileWindowPlan> {
  const from = await lineStartNear(handle, size, Math.max(0, size - window.tailBytes))
  if (from === 0) return { from }
  const head = Buffer.alloc(Math.min(firstLineLimit(window, maxLineBytes), size))
  const { bytesRead } = await handle.read(head, 0, head.length, 0)
  const firstLine = parseFirstLine(head.subarray(0, bytesRead))
  return firstLine === undefined ? { from } : { from, firstLine }
}

const PROBE_BYTES = 64 * 1024

async function lineStartNear(handle: FileHandle, size: number, position: number): Promise<number> {
  if (position === 0) return 0
  const chunk = Buffer.alloc(PROBE_BYTES)
  for (let at = Math.max(0, position - 1); at < size; at += chunk.length) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, size - at), at)
    if (bytesRead === 0) break
    const nl = chunk.subarray(0, bytesRead).indexOf(0x0a)
    if (nl !== -1) return at + nl + 1
  }
  // The rest is one unfinished line: it starts after the last newline before `position`.
  for (let end = position; end > 0; end -= chunk.length) {
    const from = Math.max(0, end - chunk.length)
    const { bytesRead } = await handle.read(chunk, 0, end - from, from)
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(0x0a)
    if (nl !== -1) return from + nl + 1
  }
  return 0
}

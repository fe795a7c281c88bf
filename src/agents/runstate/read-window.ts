/**
 * The window policy every reader shares (Claude Code transcripts, Codex rollouts plain or `.zst`,
 * OpenCode event logs, and the monitor through them): a file (or a decompressed stream) at least
 * `windowThresholdBytes` long is read through two windows, its first line (an id, a session's
 * metadata) and its last `tailWindowBytes`, aligned to a line start. Everything between is never
 * parsed, so a huge file costs the window's work and memory, not the file's; `warnings` says so
 * with the note below. One policy, one set of defaults, one wording: a reader cannot drift.
 */

export interface ReadWindowOptions {
  /** Files (decompressed streams) at least this large are read through windows (default 128 MiB). */
  windowThresholdBytes?: number
  /** Bytes at the end of a large file that are read (default 16 MiB). */
  tailWindowBytes?: number
  /** Bytes at the start of a large file searched for the end of its first line (default 1 MiB). */
  headWindowBytes?: number
}

export interface ReadWindow {
  thresholdBytes: number
  tailBytes: number
  headBytes: number
}

const MiB = 1024 * 1024
export const DEFAULT_WINDOW_THRESHOLD_BYTES = 128 * MiB
export const DEFAULT_TAIL_WINDOW_BYTES = 16 * MiB
export const DEFAULT_HEAD_WINDOW_BYTES = MiB
/** A compressed file's decoding stops after this many decompressed bytes (a bomb's cost is capped). */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 1024 * MiB

export function resolveReadWindow(options: ReadWindowOptions = {}): ReadWindow {
  return {
    thresholdBytes: options.windowThresholdBytes ?? DEFAULT_WINDOW_THRESHOLD_BYTES,
    tailBytes: options.tailWindowBytes ?? DEFAULT_TAIL_WINDOW_BYTES,
    headBytes: options.headWindowBytes ?? DEFAULT_HEAD_WINDOW_BYTES,
  }
}

/** Where a windowed read started: the tail window's first line, and the size it was planned for. */
export interface AppliedWindow {
  /** Byte offset (decompressed for a `.zst` stream) of the first line of the tail window. */
  from: number
  /** The file's (stream's) size in bytes when the window was planned. */
  totalBytes: number
  /** The warning the reader adds (see `windowNote`). */
  note: string
}

const NOTE_MARK = ' read through windows ('

/** The warning a windowed read carries; `what` names the file ("transcript", "rollout", "event log"). */
export function windowNote(source: string, what: string, window: { from: number; totalBytes: number; decompressed?: boolean }): string {
  return `${source}: ${mib(window.totalBytes)} MiB ${what}${window.decompressed === true ? ' (decompressed)' : ''}${NOTE_MARK}its first line and the last ${mib(window.totalBytes - window.from)} MiB); earlier messages are not shown and seqs count from the window.`
}

/** True for a warning `windowNote` wrote (the monitor surfaces it once per session). */
export function isWindowNote(warning: string): boolean {
  return warning.includes(NOTE_MARK) && warning.includes(' MiB); earlier messages are not shown')
}

/** The first line's JSON when `head` (the file's first bytes) holds its newline and it parses. */
export function parseFirstLine(head: Buffer): unknown {
  const nl = head.indexOf(0x0a)
  if (nl === -1) return undefined
  try {
    return JSON.parse(head.subarray(0, nl).toString('utf8').replace(/^\uFEFF/, '')) as unknown
  } catch {
    return undefined
  }
}

/** How many of the file's first bytes are searched for the first line: the head window, never past the line cap. */
export function firstLineLimit(window: ReadWindow, maxLineBytes: number): number {
  return Math.min(window.headBytes, maxLineBytes + 1)
}

function mib(bytes: number): string {
  return (bytes / MiB).toFixed(1)
}

import type { AgentCursor } from '../../contract/agent-chat.js'
import { overCapPlaceholder } from '../runstate/jsonl-lines.js'
import { createJsonlTail, DEFAULT_MAX_LINE_BYTES } from '../runstate/jsonl-tail.js'
import type { JsonlResetReason, JsonlTailOptions } from '../runstate/jsonl-tail.js'
import { createTranscriptFold } from './transcript-fold.js'
import type { FoldSnapshot, TranscriptFoldOptions } from './transcript-fold.js'

/**
 * Incremental reading of one Claude Code transcript: each `read()` folds only the bytes appended
 * since the last one and returns the whole view. A partial last line waits for its newline; a
 * truncated, replaced or rewritten file starts a fresh fold. Any split of the same bytes into
 * appends ends in exactly the view one full read gives. A transcript at least
 * `windowThresholdBytes` (128 MiB) long when reading starts is read through windows: its first
 * line and its last `tailWindowBytes` (16 MiB), and `warnings` starts with a note saying so.
 */

export type TranscriptTailOptions = Omit<JsonlTailOptions, 'what'> & TranscriptFoldOptions

export interface TranscriptView extends FoldSnapshot {
  cursor: AgentCursor
  /** Malformed and non-object lines skipped so far; never thrown. */
  warnings: string[]
  /** Set when this read started over because the file no longer continued the old one. */
  reset?: JsonlResetReason
}

export interface TranscriptTail {
  readonly path: string
  /**
   * Throws `TranscriptGoneError` (missing file); other I/O errors pass through. A line over the cap
   * is skipped: a placeholder message marks its place and `warnings` names it.
   */
  read: () => Promise<TranscriptView>
}

const MAX_SHAPE_WARNINGS = 20

export function createTranscriptTail(path: string, options: TranscriptTailOptions = {}): TranscriptTail {
  // The shared window policy (runstate/read-window.ts): a huge transcript's first line and last window.
  const lines = createJsonlTail(path, { ...options, what: 'transcript' })
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  let fold = createTranscriptFold(options)
  let nonObjects: string[] = []
  let nonObjectCount = 0

  return {
    path,
    async read() {
      const result = await lines.read({
        onReset: () => {
          fold = createTranscriptFold(options)
          nonObjects = []
          nonObjectCount = 0
        },
        onRecord: (record) => {
          if (typeof record.value !== 'object' || record.value === null || Array.isArray(record.value)) {
            nonObjectCount += 1
            if (nonObjects.length < MAX_SHAPE_WARNINGS) nonObjects.push(`${path}: line ${record.line} is JSON but not an object; skipped.`)
            return
          }
          fold.push(record.value)
        },
        onOverCap: (skipped) => fold.placeholder(overCapPlaceholder(skipped, maxLineBytes)),
      })
      const snapshot = fold.snapshot()
      const warnings = [...lines.warnings(), ...nonObjects]
      if (nonObjectCount > nonObjects.length) warnings.push(`${path}: ${nonObjectCount - nonObjects.length} more non-object lines skipped.`)
      for (const warning of snapshot.warnings) warnings.push(`${path}: ${warning}`)
      return { ...snapshot, cursor: result.cursor, warnings, ...(result.reset !== undefined ? { reset: result.reset } : {}) }
    },
  }
}

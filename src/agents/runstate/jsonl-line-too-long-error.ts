import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/**
 * One JSONL line longer than the reader's cap. The readers no longer throw it: an over-cap line
 * is skipped with a placeholder message and a warning, by full and incremental reads alike
 * (jsonl-lines.ts; issue 15 item 4). Kept exported so code that checks for it still compiles.
 */
export class JsonlLineTooLongError extends ChatrailError {
  readonly path: string
  /** 1-based line number of the offending line. */
  readonly line: number
  /** Byte offset where the line starts. */
  readonly offset: number
  readonly limit: number

  constructor(init: { path: string; line: number; offset: number; limit: number }) {
    super({
      code: 'JSONL_LINE_TOO_LONG',
      message: `${init.path}: line ${init.line} (at byte ${init.offset}) is longer than the ${init.limit}-byte line cap.`,
      hint: `Pass a larger maxLineBytes (now ${init.limit}) if the file is genuine; the line was not read, so nothing after it was either.`,
    })
    this.name = 'JsonlLineTooLongError'
    this.path = init.path
    this.line = init.line
    this.offset = init.offset
    this.limit = init.limit
  }

  static override isInstance = markErrorClass(JsonlLineTooLongError, 'JsonlLineTooLongError')
}

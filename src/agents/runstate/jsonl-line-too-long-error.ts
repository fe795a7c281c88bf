import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/**
 * One JSONL line longer than the reader's cap. Readers refuse the file rather than serve a chat
 * that silently lost a record (its cursor would otherwise move past bytes it never understood).
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

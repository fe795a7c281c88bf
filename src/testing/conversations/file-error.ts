import { ChatrailError, markErrorClass } from '../../contract/errors.js'

/** One problem in a conversation file, placed at a 1-based line and column. */
export interface ConversationFileIssue {
  code: string
  file: string
  line: number
  column: number
  /** The data path inside the file, e.g. `['turns', 2, 'expect', 'route']`. */
  path: (string | number)[]
  message: string
  hint?: string
}

/**
 * A `*.conv.yaml` file that cannot run: YAML syntax, an unknown key, a wrong type, a turn that
 * references a turn that does not exist, a definition module that does not load. Holds every
 * issue found; its own `message` is the first one, `file:line:column: message`.
 */
export class ConversationFileError extends ChatrailError {
  readonly issues: ConversationFileIssue[]
  readonly file: string

  constructor(issues: [ConversationFileIssue, ...ConversationFileIssue[]]) {
    const [first] = issues
    super({
      code: 'CONVERSATION_FILE_INVALID',
      message: `${first.file}:${first.line}:${first.column}: ${first.message}`,
      ...(first.hint === undefined ? {} : { hint: first.hint }),
    })
    this.name = 'ConversationFileError'
    this.issues = issues
    this.file = first.file
  }
}

export const isConversationFileError = markErrorClass(ConversationFileError, 'ConversationFileError')

/**
 * Prints every issue as `file:line:column  message` with its hint on the next line, the way
 * compilers do so editors can jump to it. Kept apart from the error so callers choose the format.
 */
export function formatConversationFileError(error: ConversationFileError): string {
  return error.issues
    .map((issue) => {
      const head = `${issue.file}:${issue.line}:${issue.column}  ${issue.message}`
      return issue.hint === undefined ? head : `${head}\n    hint: ${issue.hint}`
    })
    .join('\n')
}

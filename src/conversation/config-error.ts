import { ChatrailError, markErrorClass } from '../contract/errors.js'

/** One problem in a definition: where it is (`path` into the definition), what is wrong, how to fix it. */
export interface ConfigIssue {
  code: string
  path: (string | number)[]
  message: string
  hint: string
}

/** An issue from its four parts, in the order every message reads: what, where, what is wrong, the fix. */
export function configIssue(code: string, path: (string | number)[], message: string, hint: string): ConfigIssue {
  return { code, path, message, hint }
}

/**
 * A definition that cannot run. Holds every issue found in one pass; the error's own `path`,
 * `message` and `hint` are the first issue's. Printing lives in `formatConfigIssues`.
 */
export class ChatrailConfigError extends ChatrailError {
  readonly issues: readonly ConfigIssue[]
  readonly path: (string | number)[]
  override readonly hint: string

  constructor(issues: readonly ConfigIssue[]) {
    const first = issues[0] ?? {
      code: 'config_invalid',
      path: [],
      message: 'The definition is invalid.',
      hint: 'Check the definition against docs/conversation.md.',
    }
    super({ code: 'CONFIG_INVALID', message: first.message, hint: first.hint })
    this.name = 'ChatrailConfigError'
    this.issues = Object.freeze(issues.length > 0 ? [...issues] : [first])
    this.path = first.path
    this.hint = first.hint
  }

  static override isInstance(value: unknown): value is ChatrailConfigError {
    return isChatrailConfigError(value)
  }
}

export const isChatrailConfigError = markErrorClass(ChatrailConfigError, 'ChatrailConfigError')

/** Throws one `ChatrailConfigError` holding `issues` when there is at least one. */
export function throwIfIssues(issues: readonly ConfigIssue[]): void {
  if (issues.length > 0) throw new ChatrailConfigError(issues)
}

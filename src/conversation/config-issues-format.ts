import type { ConfigIssue } from './config-error.js'

/** `conversation.states.idle.on.go`, with `[2]` for numeric segments. Pure. */
export function toDotPath(path: readonly (string | number)[]): string {
  let out = ''
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment)}]`
  }
  return out === '' ? '(root)' : out
}

/**
 * Prints issues (config errors or lint warnings) one block each:
 * `✖ message`, `  → at path`, `  hint: …`. Pure; kept apart from the error classes.
 */
export function formatConfigIssues(issues: readonly ConfigIssue[], mark = '✖'): string {
  return issues
    .map((issue) => `${mark} ${issue.message}\n  → at ${toDotPath(issue.path)}\n  hint: ${issue.hint}`)
    .join('\n')
}

import { assertAgentId } from '../../runstate/agent-id.js'

/**
 * The argument array for one `codex exec` turn. Pure. The prompt is never an argument: the final
 * positional is `-` and the prompt goes on stdin, so text starting with `-` can never be read as a
 * flag. Values from configuration use the `--flag=value` form for the same reason; the thread id
 * must be a UUID (checked again here: it comes from the CLI's own output) and follows `--`, so even
 * a value that slipped through could only be a positional.
 *
 * First turn: `codex exec --json [opts] -`. Later turns: `codex exec --json [opts] resume -- <id> -`.
 */

export interface CodexTurnArgs {
  resumeThreadId?: string
  model?: string
  sandbox?: string
  skipGitRepoCheck?: boolean
  extraArgs?: readonly string[]
}

export function buildCodexArgs(turn: CodexTurnArgs): string[] {
  const args = ['exec', ...(turn.extraArgs ?? []), '--json']
  if (turn.skipGitRepoCheck) args.push('--skip-git-repo-check')
  if (turn.model !== undefined) args.push(`--model=${turn.model}`)
  if (turn.sandbox !== undefined) args.push(`--sandbox=${turn.sandbox}`)
  if (turn.resumeThreadId !== undefined) args.push('resume', '--', assertAgentId(turn.resumeThreadId, 'The Codex thread id'))
  args.push('-')
  return args
}

import { assertAgentId } from '../../runstate/agent-id.js'

/**
 * The argument array for one `claude` turn. Pure. The prompt is never an argument: it goes on stdin
 * as a stream-json user message, so text starting with `-` can never be read as a flag. Values that
 * come from configuration use the `--flag=value` form for the same reason.
 */

export interface ClaudeTurnArgs {
  resumeId?: string
  model?: string
  permissionMode?: string
  allowedTools?: readonly string[]
  includePartialMessages: boolean
  /** `AdapterContext.systemPrompt` of the request (A10), appended to Claude Code's own. */
  appendSystemPrompt?: string
  extraArgs?: readonly string[]
}

export function buildClaudeArgs(turn: ClaudeTurnArgs): string[] {
  const args = [...(turn.extraArgs ?? [])]
  args.push('-p', '--output-format', 'stream-json', '--input-format', 'stream-json', '--verbose')
  // Permission prompts (and AskUserQuestion / ExitPlanMode, which -p alone does not offer) arrive
  // as control requests on stdout and are answered on stdin.
  args.push('--permission-prompt-tool', 'stdio')
  if (turn.includePartialMessages) args.push('--include-partial-messages')
  // The id comes from the CLI's own output: checked again here, and in the `=` form it is never a flag.
  if (turn.resumeId !== undefined) args.push(`--resume=${assertAgentId(turn.resumeId, 'The Claude Code session id')}`)
  if (turn.model !== undefined) args.push(`--model=${turn.model}`)
  if (turn.permissionMode !== undefined) args.push(`--permission-mode=${turn.permissionMode}`)
  if (turn.allowedTools !== undefined && turn.allowedTools.length > 0) args.push(`--allowedTools=${turn.allowedTools.join(',')}`)
  if (turn.appendSystemPrompt !== undefined && turn.appendSystemPrompt !== '') args.push(`--append-system-prompt=${turn.appendSystemPrompt}`)
  return args
}

/** The stdin line that sends `text` as the user's turn (`SDKUserMessage`). */
export function claudeUserMessageLine(text: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null })
}

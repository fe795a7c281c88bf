import { ChatrailError } from '../../../contract/errors.js'
import type { JsonRecord } from '../../process/json-value.js'
import type { PermissionDecision } from './claude-control-request.js'

/** The options of `claudeCodeAdapter`. Only `cwd` is required. */
export interface ClaudeCodeAdapterOptions {
  /** The agent's working directory (its project). */
  cwd: string
  /** The CLI to run (default `claude`, found on PATH). Never run through a shell. */
  bin?: string
  /** An existing Claude session to resume on the first turn (a UUID). */
  sessionId?: string
  /** Continue the same Claude session across turns with `--resume` (default true). */
  resume?: boolean
  model?: string
  permissionMode?: ClaudePermissionMode
  /** Tools allowed without a prompt, e.g. `['Read', 'Bash(git diff:*)']`. */
  allowedTools?: string[]
  /** Merged over `process.env` for the child (e.g. `ANTHROPIC_BASE_URL`, `HOME`). */
  env?: Record<string, string | undefined>
  /** More CLI arguments, placed before the adapter's own. Trusted configuration, never user text. */
  extraArgs?: string[]
  /** Stream text and thinking as it is generated (`--include-partial-messages`, default true). */
  includePartialMessages?: boolean
  /**
   * Decides a permission prompt for a tool that is neither allowed up front nor a dialog (e.g. a
   * Bash command in `default` mode). Default: deny, as plain `claude -p` does, with a message naming
   * `allowedTools` / `permissionMode`. A throw or rejection also denies.
   */
  onPermissionRequest?: (request: ClaudePermissionRequest) => PermissionDecision | Promise<PermissionDecision>
  /** SIGTERM → SIGKILL grace when a turn is aborted (default 3000 ms). */
  graceMs?: number
  /** How often the transcript is read for the live run state while a turn runs (default 200 ms). */
  pollMs?: number
}

export type ClaudePermissionMode = 'acceptEdits' | 'auto' | 'bypassPermissions' | 'default' | 'dontAsk' | 'plan'

export const CLAUDE_PERMISSION_MODES: readonly ClaudePermissionMode[] = ['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan']

export interface ClaudePermissionRequest {
  toolName: string
  toolUseId: string
  input: JsonRecord
  /**
   * The conversation whose turn asks, when the request that started the turn named it
   * (`context.metadata.conversationId`: chatrail/server names it for a live agent's turns), so one
   * adapter shared by many conversations keeps each one's permission records apart.
   */
  conversationId?: string
}

/** Claude session ids are UUIDs; checking keeps a configured id from ever reading as a flag. */
export const SESSION_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Throws a `ChatrailError` naming the option and the fix; called once, when the adapter is made. */
export function validateClaudeCodeOptions(options: ClaudeCodeAdapterOptions): void {
  const fail = (option: string, message: string, hint: string): never => {
    throw new ChatrailError({ code: 'INVALID_ADAPTER_OPTION', message: `claudeCodeAdapter: \`${option}\` ${message}`, hint })
  }
  if (typeof options.cwd !== 'string' || options.cwd === '') fail('cwd', 'is required.', 'Pass the directory the agent works in, e.g. { cwd: process.cwd() }.')
  if (options.bin !== undefined && options.bin === '') fail('bin', 'is empty.', 'Leave it out to run `claude` from PATH, or pass a path.')
  if (options.sessionId !== undefined && !SESSION_ID_PATTERN.test(options.sessionId)) {
    fail('sessionId', `is not a Claude session id: ${JSON.stringify(options.sessionId)}.`, 'Use the UUID from `system/init` (`session_id`) or the transcript file name.')
  }
  if (options.permissionMode !== undefined && !CLAUDE_PERMISSION_MODES.includes(options.permissionMode)) {
    fail('permissionMode', `is not one of ${CLAUDE_PERMISSION_MODES.join(', ')}: ${JSON.stringify(options.permissionMode)}.`, 'Pick one of the listed modes.')
  }
  for (const tool of options.allowedTools ?? []) {
    if (typeof tool !== 'string' || tool.trim() === '') fail('allowedTools', 'has an empty entry.', "List tool names or rules, e.g. ['Read', 'Bash(git diff:*)'].")
  }
}

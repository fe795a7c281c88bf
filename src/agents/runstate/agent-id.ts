import { ChatrailError } from '../../contract/errors.js'

/**
 * Session and thread ids the agent CLIs print (`session_id` of Claude Code's `system/init`,
 * `thread_id` of Codex's `thread.started`) become file names (`<id>.jsonl`) and command-line
 * arguments (`--resume=<id>`, `resume -- <id>`). The CLI's output is not trusted to be well formed:
 * an id is used only when it is a UUID (8-4-4-4-12 hex digits, the shape both CLIs mint), so it
 * can name no other path (`../x`) and no flag (`--x`).
 */

export const AGENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Pure. True for a string a CLI id may be (a UUID). */
export function isAgentId(value: string): boolean {
  return typeof value === 'string' && AGENT_ID_PATTERN.test(value)
}

/** Returns `value` when it is a UUID; throws `ChatrailError` `INVALID_AGENT_ID` naming `what` otherwise. */
export function assertAgentId(value: string, what: string): string {
  if (isAgentId(value)) return value
  throw new ChatrailError({
    code: 'INVALID_AGENT_ID',
    message: `${what} ${JSON.stringify(value.slice(0, 200))} is not a UUID; it cannot be used as a file name or a command-line argument.`,
    hint: 'Use the UUID the CLI printed (`session_id` / `thread_id`) or the one at the end of the transcript or rollout file name.',
  })
}

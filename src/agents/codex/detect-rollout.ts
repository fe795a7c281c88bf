import { isObject } from './rollout-line.js'

const ENVELOPE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record'])

/**
 * True when a parsed JSONL line can only come from a Codex rollout (pure): an envelope line
 * (`{"timestamp","type":"session_meta"|"event_msg"|…,"payload":{…}}`), or a legacy pre-envelope
 * first line (a bare `SessionMeta` with `id`, `timestamp` and `instructions`) or state marker.
 * Claude Code lines never have `payload` and always have a `type` of their own.
 */
export function isRolloutContent(value: unknown): boolean {
  if (!isObject(value)) return false
  if (typeof value.type === 'string' && ENVELOPE_TYPES.has(value.type) && isObject(value.payload)) return true
  if (value.record_type === 'state') return true
  return value.type === undefined && typeof value.id === 'string' && typeof value.timestamp === 'string' && 'instructions' in value
}

/** The bare `ResponseItem` types of the pre-envelope format (≈ May–Aug 2025). */
const LEGACY_ITEM_TYPES = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output', 'local_shell_call', 'web_search_call'])

/**
 * True when a parsed line is one a rollout reader reads (pure): any `isRolloutContent` line, or a
 * legacy bare item. `chatrail inspect` counts the lines of a file read as a rollout that are not,
 * to warn that they went unread (a `codex exec --json` capture is not a rollout).
 */
export function isRolloutLine(value: unknown): boolean {
  return isRolloutContent(value) || (isObject(value) && value.payload === undefined && typeof value.type === 'string' && LEGACY_ITEM_TYPES.has(value.type))
}

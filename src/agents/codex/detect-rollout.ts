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

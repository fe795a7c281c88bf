/**
 * One rollout line, classified. Three generations share a file name and nothing else:
 *
 * - the pre-envelope legacy format (≈ May–Aug 2025): a bare `SessionMeta` first line, then bare
 *   `ResponseItem` objects and `{"record_type":"state"}` markers;
 * - the envelope (`{"timestamp","type","payload"}`) with `session_meta`, `turn_context`,
 *   `response_item`, `event_msg`, `compacted` (Sept 2025 on);
 * - the current envelope, which adds `ordinal`, `world_state`, `token_usage_record` and writes prose
 *   as `event_msg` `item_completed` TurnItems.
 *
 * Pure: classification never throws; anything it does not recognise is `other` and ignored.
 */

export type Json = Record<string, unknown>

export type RolloutLine =
  | { kind: 'session_meta'; meta: Json }
  | { kind: 'response_item'; item: Json; at?: string; bare: boolean }
  | { kind: 'event_msg'; event: Json; at?: string }
  | { kind: 'compacted'; at?: string }
  | { kind: 'token_usage_record'; record: Json }
  | { kind: 'other' }
  | { kind: 'invalid'; reason: string }

export function classifyRolloutLine(value: unknown): RolloutLine {
  if (!isObject(value)) return { kind: 'invalid', reason: `a JSON ${describe(value)}, not a record` }
  const type = value.type
  const payload = value.payload
  if (isObject(payload) && typeof type === 'string') {
    const at = typeof value.timestamp === 'string' ? value.timestamp : undefined
    switch (type) {
      case 'session_meta':
        return { kind: 'session_meta', meta: payload }
      case 'response_item':
        return withAt({ kind: 'response_item', item: payload, bare: false }, at)
      case 'event_msg':
        return withAt({ kind: 'event_msg', event: payload }, at)
      case 'compacted':
        return withAt({ kind: 'compacted' }, at)
      case 'token_usage_record':
        return { kind: 'token_usage_record', record: payload }
      default:
        return { kind: 'other' }
    }
  }
  if (payload !== undefined) return { kind: 'other' }
  // Legacy: a bare SessionMeta has an id and a timestamp but no type; bare items have a type.
  if (type === undefined && typeof value.id === 'string' && typeof value.timestamp === 'string') {
    return { kind: 'session_meta', meta: value }
  }
  if (typeof type === 'string') return { kind: 'response_item', item: value, bare: true }
  return { kind: 'other' }
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function stringField(record: Json, key: string): string | undefined {
  const value = record[key]
  return typeof value === 'string' ? value : undefined
}

function withAt<T extends RolloutLine>(line: T, at: string | undefined): T {
  return at === undefined ? line : { ...line, at }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

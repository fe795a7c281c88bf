/**
 * `rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl[.zst]` (and the early flat
 * `rollout-YYYY-MM-DD-<uuid>.jsonl`), parsed like upstream's `parse_timestamp_uuid_from_filename`:
 * the id is the longest suffix after a `-` that is a UUID. The stamp is the writer's **local**
 * time: it orders files of one machine, and is never compared with the UTC times inside them.
 */
export interface RolloutFileName {
  /** The thread id (equals `session_meta.payload.id`). */
  id: string
  /** The local-time stamp as written, e.g. `2025-11-17T15-30-28`. */
  stamp: string
  compressed: boolean
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Pure; `undefined` for a name that is not a rollout. */
export function parseRolloutFileName(name: string): RolloutFileName | undefined {
  const compressed = name.endsWith('.zst')
  const plain = compressed ? name.slice(0, -'.zst'.length) : name
  if (!plain.startsWith('rollout-') || !plain.endsWith('.jsonl')) return undefined
  const core = plain.slice('rollout-'.length, -'.jsonl'.length)
  // A UUID has four dashes: the split sits five dash-separated groups from the right.
  const groups = core.split('-')
  if (groups.length < 6) return undefined
  const id = groups.slice(-5).join('-')
  if (!UUID.test(id)) return undefined
  return { id: id.toLowerCase(), stamp: groups.slice(0, -5).join('-'), compressed }
}

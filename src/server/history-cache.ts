import type { Message } from '../contract/message.js'
import type { StoredConversation } from '../store/conversation-store.js'

/**
 * What one handler derived from a conversation's stored history (its history re-derived under this
 * revision, the state a session reaches on it), kept so the next request for the same history does
 * not derive it again. A server shares its store with other instances, so an entry is used only for
 * the very history it was derived from: the store's `version` must match (any write changes it) and
 * the messages must be equal, field by field (a conversation deleted and written again can reach the
 * same version, even at the same clock). Both are checked against what the store returned for this
 * request, so another instance's write is never hidden by an entry. The comparison is O(history)
 * but allocates nothing, far cheaper than a re-derivation (a session turn per user message) or a
 * session synced to the history. An entry keeps its history alive, so the cache is bounded twice:
 * at most `capacity` conversations and `maxMessages` stored messages in all; least recently used
 * entries go first, and a history longer than `maxMessages` is not kept at all.
 */
export interface HistoryCache<V> {
  /** The value derived from exactly this stored history, if one is kept. */
  get: (stored: StoredConversation) => V | undefined
  /** Keeps `value` as derived from `stored` (replacing what the conversation had). */
  set: (stored: StoredConversation, value: V) => void
  /** How many conversations are kept (at most `capacity`). */
  readonly size: number
  /** How many stored messages their histories hold together (at most `maxMessages`). */
  readonly messageCount: number
}

interface Entry<V> {
  readonly version: number
  readonly revision: number
  readonly messages: readonly Message[]
  readonly value: V
}

export function createHistoryCache<V>(capacity: number, maxMessages: number): HistoryCache<V> {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, Entry<V>>()
  let messageCount = 0
  const drop = (conversationId: string): void => {
    const entry = entries.get(conversationId)
    if (!entry) return
    entries.delete(conversationId)
    messageCount -= entry.messages.length
  }
  return {
    get(stored) {
      const entry = entries.get(stored.conversationId)
      if (!entry || entry.version !== stored.version || entry.revision !== stored.definition.revision || !sameMessages(entry.messages, stored.messages)) return undefined
      entries.delete(stored.conversationId)
      entries.set(stored.conversationId, entry)
      return entry.value
    },
    set(stored, value) {
      drop(stored.conversationId)
      if (stored.messages.length > maxMessages) return
      entries.set(stored.conversationId, { version: stored.version, revision: stored.definition.revision, messages: stored.messages, value })
      messageCount += stored.messages.length
      while (entries.size > capacity || messageCount > maxMessages) {
        const oldest = entries.keys().next()
        if (oldest.done) break
        drop(oldest.value)
      }
    },
    get size() {
      return entries.size
    },
    get messageCount() {
      return messageCount
    },
  }
}

/** Equal histories: the same messages, compared as the JSON values they are stored as (dates by time). */
export function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false
  return true
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false
    return true
  }
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  let count = 0
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue
    count += 1
    if (!Object.hasOwn(y, key) || !sameValue(x[key], y[key])) return false
  }
  for (const key in y) if (Object.hasOwn(y, key)) count -= 1
  return count === 0
}

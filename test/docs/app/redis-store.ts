import { memoryStore, type ConversationStore } from 'chatrail/store'
import type { StoreContractOptions } from 'chatrail/testing/vitest'

/** The stand-in for a store of an app's own (docs/persistence.md `./redis-store.js`). */
export function redisStore(options: StoreContractOptions & { url: string; prefix: string }): ConversationStore {
  return memoryStore({ clock: options.clock, maxMessageBytes: options.maxMessageBytes })
}

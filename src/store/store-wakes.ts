import type { StoreWake } from './conversation-store.js'

/**
 * The in-process side of `ConversationStore.subscribe`: who waits on which conversation, and the
 * call that wakes them. The memory store wakes it after its own writes; the SQL stores wake it from
 * the database's notifications (sql/store-notifications.ts). A wake is a hint to read the store
 * now, never data: subscribers read what they need themselves, and keep polling as the fallback.
 */
export interface StoreWakes {
  /** Adds `onWake` for this conversation; returns the unsubscribe (idempotent). */
  subscribe: (conversationId: string, onWake: (reason: StoreWake) => void) => () => void
  /** Wakes this conversation's subscribers, each in a microtask of its own (a writer never runs a subscriber's code). */
  wake: (conversationId: string, reason: Exclude<StoreWake, 'missed'>) => void
  /** Wakes every subscriber with `missed`: notifications may have been lost (a listener that reconnected). */
  wakeAll: () => void
  /** How many conversations have a subscriber. */
  readonly size: number
}

export function createStoreWakes(onError: (error: unknown) => void = () => undefined): StoreWakes {
  const waiting = new Map<string, Set<(reason: StoreWake) => void>>()
  const call = (onWake: (reason: StoreWake) => void, reason: StoreWake): void => {
    queueMicrotask(() => {
      try {
        onWake(reason)
      } catch (error) {
        onError(error) // one subscriber's throw never keeps the others asleep
      }
    })
  }
  return {
    subscribe(conversationId, onWake) {
      // a wrapper per subscription, so the same function subscribed twice unsubscribes once each
      const entry = (reason: StoreWake): void => onWake(reason)
      let set = waiting.get(conversationId)
      if (!set) waiting.set(conversationId, (set = new Set()))
      set.add(entry)
      return () => {
        const current = waiting.get(conversationId)
        if (!current?.delete(entry)) return
        if (current.size === 0) waiting.delete(conversationId)
      }
    },
    wake(conversationId, reason) {
      const set = waiting.get(conversationId)
      if (set) for (const onWake of [...set]) call(onWake, reason)
    },
    wakeAll() {
      for (const set of [...waiting.values()]) for (const onWake of [...set]) call(onWake, 'missed')
    },
    get size() {
      return waiting.size
    },
  }
}

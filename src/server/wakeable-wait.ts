import type { ConversationStore, StoreWake } from '../store/conversation-store.js'

/**
 * The waits of a reader that polls the store for one conversation (a resumed stream), cut short
 * when the store wakes it (`store.subscribe`). A wake that arrives while the reader is reading,
 * not waiting, is kept, so the next wait returns at once: a write that committed after a read is
 * never left for the poll to find.
 */
export interface WakeableWait {
  /** Resolves after `ms`, when woken, or when closed; at once if woken since the last wait. */
  wait: (ms: number) => Promise<void>
  /** True when the store can wake this reader (it has `subscribe`), so its poll is only a fallback. */
  readonly subscribed: boolean
  /** Unsubscribes, and resolves a pending wait. Idempotent. */
  close: () => void
}

/** `on`: the writes this reader waits for (`missed` always wakes it). */
export function wakeableWait(store: ConversationStore, conversationId: string, on: Exclude<StoreWake, 'missed'>): WakeableWait {
  let woken = false
  let closed = false
  let release: (() => void) | undefined
  const wake = (reason: StoreWake): void => {
    if (reason !== on && reason !== 'missed') return
    woken = true
    release?.()
  }
  const unsubscribe = store.subscribe?.(conversationId, wake)
  return {
    subscribed: unsubscribe !== undefined,
    wait(ms) {
      if (woken || closed) {
        woken = false
        return Promise.resolve()
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms)
        function done(): void {
          clearTimeout(timer)
          release = undefined
          woken = false
          resolve()
        }
        release = done
      })
    },
    close() {
      if (closed) return
      closed = true
      unsubscribe?.()
      release?.()
    },
  }
}

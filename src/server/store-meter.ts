import type { ConversationStore } from '../store/conversation-store.js'

/**
 * A turn's view of the store that adds up how long its store calls took (load, claim, renew,
 * signal polls, part batches, the write), by the handler's clock, so the turn can store with its
 * answer the store time it spent before that answer's write (`timings.storeBeforeWriteMs`): the
 * write itself cannot carry its own duration. Calls that overlap (a part batch while a signal poll
 * waits) each count whole: the figure is store time spent, not wall time. A `Proxy` rather than a
 * copied object, so whatever methods a store implementation has (on its prototype or not, optional
 * ones such as `appendTurnParts` present or absent) stay exactly as they are.
 */
export interface MeteredStore {
  readonly store: ConversationStore
  /** Milliseconds the calls that have settled took, summed. */
  readonly spentMs: () => number
}

export function meterStore(store: ConversationStore, clock: () => number): MeteredStore {
  let spent = 0
  const wrappers = new Map<PropertyKey, unknown>()
  const settled = (startedAt: number): void => {
    spent += Math.max(0, clock() - startedAt)
  }
  const metered = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      let wrapper = wrappers.get(key)
      if (wrapper === undefined) {
        wrapper = (...args: unknown[]): unknown => {
          const startedAt = clock()
          const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args)
          if (result instanceof Promise) return result.finally(() => settled(startedAt))
          settled(startedAt)
          return result
        }
        wrappers.set(key, wrapper)
      }
      return wrapper
    },
  })
  return { store: metered, spentMs: () => spent }
}

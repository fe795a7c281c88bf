/**
 * The listeners of an external store whose wiring (subscriptions to what it reads) starts with the
 * first subscriber and stops when the last one leaves: a render a framework throws away, or a mount
 * that went, leaks no subscription. Shared by the bindings and the view.
 */
export interface WiredListeners {
  subscribe: (listener: () => void) => () => void
  /** Calls every listener (a copy of the set: one may unsubscribe while called). */
  notify: () => void
  /** Drops every listener and unwires. */
  clear: () => void
}

export function wiredListeners(wire: () => () => void): WiredListeners {
  const listeners = new Set<() => void>()
  let unwire: (() => void) | undefined
  const stop = (): void => {
    unwire?.()
    unwire = undefined
  }
  return {
    subscribe: (listener) => {
      listeners.add(listener)
      unwire ??= wire()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) stop()
      }
    },
    notify: () => { for (const listener of [...listeners]) listener() },
    clear: () => {
      listeners.clear()
      stop()
    },
  }
}

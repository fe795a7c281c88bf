import type { AgentSnapshot } from '../../contract/agent-snapshot.js'

/**
 * Holds an adapter's live `AgentSnapshot` and notifies subscribers once per change. `set` with an
 * equal snapshot keeps the old object (identity changes only when something changed), so a
 * `useSyncExternalStore` reader re-renders only on real changes. A listener that throws does not
 * stop the others.
 */
export interface RunStateStore {
  getSnapshot: () => AgentSnapshot | undefined
  subscribe: (listener: () => void) => () => void
  set: (next: AgentSnapshot | undefined) => void
}

export function createRunStateStore(): RunStateStore {
  let snapshot: AgentSnapshot | undefined
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(next) {
      if (sameSnapshot(snapshot, next)) return
      snapshot = next === undefined ? undefined : Object.freeze({ ...next })
      for (const listener of [...listeners]) {
        try {
          listener()
        } catch {
          // one failing subscriber must not starve the rest
        }
      }
    },
  }
}

function sameSnapshot(a: AgentSnapshot | undefined, b: AgentSnapshot | undefined): boolean {
  if (a === b) return true
  if (a === undefined || b === undefined) return false
  return (
    a.agent === b.agent &&
    a.state === b.state &&
    a.status === b.status &&
    a.detail === b.detail &&
    JSON.stringify(a.pendingDialog) === JSON.stringify(b.pendingDialog)
  )
}

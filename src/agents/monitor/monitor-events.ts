import { isTerminal } from './monitor-entry.js'
import type { MonitorEntry } from './monitor-entry.js'
import type { NotificationReason } from './notification-gate.js'

/**
 * What a monitor tells its subscribers. A closed union: `snapshot` once (the first tick), then one
 * event per added, changed or removed session, a `session_reopened` beside the `session_changed` of
 * a session leaving a terminal state, and `notification`s from the gate.
 */
export type MonitorEvent =
  | { type: 'snapshot'; entries: readonly MonitorEntry[] }
  | { type: 'session_added'; entry: MonitorEntry }
  | { type: 'session_changed'; previous: MonitorEntry; entry: MonitorEntry }
  | { type: 'session_reopened'; previous: MonitorEntry; entry: MonitorEntry }
  | { type: 'session_removed'; previous: MonitorEntry }
  | { type: 'notification'; reason: NotificationReason; entry: MonitorEntry }

/**
 * Pure. The events that turn `previous` into `next` (both keyed by `MonitorEntry.key`), in key
 * order within each kind: added, then changed (each reopening right after its change), then
 * removed. An entry that equals its previous value, field by field, emits nothing.
 */
export function diffEntries(previous: ReadonlyMap<string, MonitorEntry>, next: ReadonlyMap<string, MonitorEntry>): MonitorEvent[] {
  const added: MonitorEvent[] = []
  const changed: MonitorEvent[] = []
  const removed: MonitorEvent[] = []
  for (const key of [...next.keys()].sort()) {
    const entry = next.get(key) as MonitorEntry
    const before = previous.get(key)
    if (before === undefined) {
      added.push({ type: 'session_added', entry })
    } else if (!sameEntry(before, entry)) {
      changed.push({ type: 'session_changed', previous: before, entry })
      if (isTerminal(before) && !isTerminal(entry)) changed.push({ type: 'session_reopened', previous: before, entry })
    }
  }
  for (const key of [...previous.keys()].sort()) {
    const before = previous.get(key) as MonitorEntry
    if (!next.has(key)) removed.push({ type: 'session_removed', previous: before })
  }
  return [...added, ...changed, ...removed]
}

/** Field-by-field equality of two entries (plain JSON data). */
export function sameEntry(a: MonitorEntry, b: MonitorEntry): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

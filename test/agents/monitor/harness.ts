import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { Monitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import type { MonitorEvent } from '../../../src/agents/monitor/monitor-events.js'
import type { MonitorOptions } from '../../../src/agents/monitor/monitor-options.js'
import { makeFakeHome } from './fake-home.js'
import type { FakeHome } from './fake-home.js'

/** A monitor over a fresh fake home, driven by a hand-moved clock; every event is recorded. */
export interface Harness {
  home: FakeHome
  monitor: Monitor
  events: MonitorEvent[]
  /** Sets the clock (epoch ms). */
  at: (ms: number) => void
  now: () => number
  tick: () => Promise<readonly MonitorEvent[]>
  entry: (key: string) => MonitorEntry | undefined
  /** Events of `type` (for `key`, when given). */
  count: (type: MonitorEvent['type'], key?: string) => number
  /** The statuses an entry went through, from its events. */
  history: (key: string) => string[]
}

export function createHarness(start: number, options: Partial<MonitorOptions> = {}): Harness {
  const home = makeFakeHome()
  let now = start
  const monitor = createMonitor({ home: home.home, clock: () => now, ...options })
  const events: MonitorEvent[] = []
  monitor.subscribe((event) => events.push(event))
  const keyOf = (event: MonitorEvent): string | undefined => {
    switch (event.type) {
      case 'snapshot':
        return undefined
      case 'session_removed':
        return event.previous.key
      default:
        return event.entry.key
    }
  }
  return {
    home,
    monitor,
    events,
    at: (ms) => {
      now = ms
    },
    now: () => now,
    tick: () => monitor.tick(),
    entry: (key) => monitor.getState().entries.find((entry) => entry.key === key),
    count: (type, key) => events.filter((event) => event.type === type && (key === undefined || keyOf(event) === key)).length,
    history: (key) => {
      const out: string[] = []
      for (const event of events) {
        if (event.type === 'snapshot') {
          const found = event.entries.find((entry) => entry.key === key)
          if (found) out.push(label(found))
        } else if ((event.type === 'session_added' || event.type === 'session_changed') && event.entry.key === key) {
          out.push(label(event.entry))
        }
      }
      return out
    },
  }
}

function label(entry: MonitorEntry): string {
  return entry.endedBy === undefined ? `${entry.state}/${entry.status}` : `${entry.state}/${entry.status}/${entry.endedBy}`
}

export const MINUTE = 60_000
export const HOUR = 3_600_000

import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { Monitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEvent } from '../../../src/agents/monitor/monitor-events.js'
import { appendLines, makeFakeHome, placeClaude, placeCodex } from './fake-home.js'
import type { FakeHome } from './fake-home.js'

/**
 * `start()` with the real clock: file-system events wake the monitor long before its (here one
 * minute) poll; with events off, the poll alone still sees every change. Bounded waits.
 */

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function setup(options: { pollIntervalMs: number; watch: boolean }): { home: FakeHome; monitor: Monitor; events: MonitorEvent[] } {
  const home = makeFakeHome()
  const monitor = createMonitor({ home: home.home, ...options })
  const events: MonitorEvent[] = []
  monitor.subscribe((event) => events.push(event))
  cleanups.push(home.cleanup, () => monitor.stop())
  return { home, monitor, events }
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<{ value: T; afterMs: number }> {
  const started = Date.now()
  for (;;) {
    const value = check()
    if (value !== undefined) return { value, afterMs: Date.now() - started }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('monitor.start(): watching', () => {
  it('file-system events bring appends and new sessions within seconds, with a one-minute poll', async () => {
    const { home, monitor, events } = setup({ pollIntervalMs: 60_000, watch: true })
    const thread = placeCodex(home, 'plain-turn', { lines: 9, sessionId: randomUUID(), endsAgoMs: 5_000 })
    placeClaude(home, 'plain-turn', { endsAgoMs: 60_000 }) // creates ~/.claude/projects before the start, so it is watched
    await monitor.start()
    expect(monitor.stats().watching).toBe('events')
    expect(events.map((event) => event.type)).toEqual(['snapshot'])

    appendLines(thread)
    const changed = await until('the append', () => events.find((event) => event.type === 'session_changed' && event.entry.key === thread.key), 5000)
    expect(changed.value.type === 'session_changed' && changed.value.entry.status).toBe('completed')

    // A question asked seconds ago, whatever today's date: the monitor runs on the real clock.
    const added = placeClaude(home, 'question-pending', { sessionId: randomUUID(), endsAgoMs: 2_000 })
    const seen = await until('the new session', () => events.find((event) => event.type === 'session_added' && event.entry.key === added.key), 5000)
    expect(seen.value.type === 'session_added' && seen.value.entry.state).toBe('question')
    expect(monitor.stats().ticks).toBeGreaterThan(1)

    await monitor.stop()
    expect(monitor.stats().watching).toBe('stopped')
    const ticks = monitor.stats().ticks
    appendLines(placeCodex(home, 'mid-turn', { sessionId: randomUUID(), lines: 3, endsAgoMs: 1_000 }), 1)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(monitor.stats().ticks).toBe(ticks)
  }, 20_000)

  it('with events off, the poll alone sees the change', async () => {
    const { home, monitor, events } = setup({ pollIntervalMs: 150, watch: false })
    const thread = placeCodex(home, 'plain-turn', { lines: 9, sessionId: randomUUID(), endsAgoMs: 5_000 })
    await monitor.start()
    expect(monitor.stats().watching).toBe('polling')
    appendLines(thread)
    await until('the polled change', () => events.find((event) => event.type === 'session_changed'), 5000)
    expect(monitor.getState().entries[0]?.status).toBe('completed')
  }, 20_000)
})

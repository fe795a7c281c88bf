import { describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import { MonitorOptionsError } from '../../../src/agents/monitor/monitor-options.js'
import type { MonitorOptions } from '../../../src/agents/monitor/monitor-options.js'
import { lastLineTime, placeCodex } from './fake-home.js'
import { HOUR, MINUTE, createHarness } from './harness.js'

/** Bad options fail at `createMonitor`, naming the option and the fix. */

function failure(options: MonitorOptions): MonitorOptionsError {
  try {
    createMonitor(options)
  } catch (error) {
    if (MonitorOptionsError.isInstance(error)) return error
    throw error
  }
  throw new Error('createMonitor accepted the options')
}

describe('createMonitor options', () => {
  it.each([
    [{ home: '' }, 'home', /home must be the user's home directory/],
    [{ home: '/h', liveWindowMs: 0 }, 'liveWindowMs', /liveWindowMs must be a whole number ≥ 1 \(got 0\)/],
    [{ home: '/h', settleMs: 1.5 }, 'settleMs', /settleMs must be a whole number ≥ 0/],
    [{ home: '/h', maxOpenFiles: 0 }, 'maxOpenFiles', /maxOpenFiles must be a whole number ≥ 1/],
    [{ home: '/h', liveWindowMs: 60_000, endedWindowMs: 60_000 }, 'endedWindowMs', /must be longer than liveWindowMs/],
    [{ home: '/h', codexHome: '' }, 'codexHome', /codexHome must be a directory path/],
  ] as const)('%o → %s', (options, option, message) => {
    const error = failure(options)
    expect(error.option).toBe(option)
    expect(error.code).toBe('MONITOR_OPTIONS')
    expect(error.message).toMatch(message)
    expect(error.hint).toBeTruthy()
  })

  it('an empty home is an empty snapshot, nothing read', async () => {
    const monitor = createMonitor({ home: '/nonexistent-home-for-chatrail-monitor' })
    expect(await monitor.tick()).toEqual([{ type: 'snapshot', entries: [] }])
    expect(monitor.stats()).toMatchObject({ ticks: 1, bytesRead: 0, fileReads: 0, watching: 'stopped' })
  })

  it('defaults: idle after 5 min of silence, presumed ended after 24 h', async () => {
    const h = createHarness(0)
    try {
      const thread = placeCodex(h.home, 'plain-turn', { lines: 9 })
      const last = lastLineTime(thread.lines.slice(0, 9))
      h.at(last + 5 * MINUTE)
      await h.tick()
      expect(h.entry(thread.key)?.status).toBe('running')
      h.at(last + 5 * MINUTE + 1)
      await h.tick()
      expect(h.entry(thread.key)?.status).toBe('idle')
      h.at(last + 24 * HOUR)
      await h.tick()
      expect(h.entry(thread.key)?.status).toBe('idle')
      h.at(last + 24 * HOUR + 1)
      await h.tick()
      expect(h.entry(thread.key)).toMatchObject({ status: 'completed', endedBy: 'silence' })
    } finally {
      h.home.cleanup()
    }
  })
})

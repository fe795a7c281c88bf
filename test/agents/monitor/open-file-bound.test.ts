import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { placeClaude, placeCodex } from './fake-home.js'
import { createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * Issue 15 item 12: `maxOpenFiles` bounds the descriptors the monitor really holds, counted by the
 * kernel (/proc/self/fd), not only the gate's own tally. Every read through the gate closes its
 * file before it gives its slot back (the Codex origin read used to release the slot first, so
 * real descriptors peaked at twice the bound while `peakOpenFiles` said the bound).
 */

const MAX_OPEN = 4
const SESSIONS = 40
const onLinux = existsSync('/proc/self/fd')

let h: Harness

beforeAll(() => {
  h = createHarness(Date.parse('2026-11-30T01:00:00Z'), { maxOpenFiles: MAX_OPEN })
  for (let index = 0; index < SESSIONS; index += 1) {
    placeCodex(h.home, 'plain-turn', { sessionId: randomUUID() })
    placeClaude(h.home, 'plain-turn', { sessionId: randomUUID() })
  }
})
afterAll(() => h.home.cleanup())

/** Descriptors this process holds on files or folders under the fake home. */
function descriptorsUnderHome(): number {
  let count = 0
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(h.home.home)) count += 1
    } catch {
      // closed while we looked
    }
  }
  return count
}

describe.skipIf(!onLinux)('monitor: the open-file bound holds for real descriptors', () => {
  it(`a first tick over ${2 * SESSIONS} sessions never holds more than maxOpenFiles descriptors`, async () => {
    let peak = 0
    let sampling = true
    const sample = (): void => {
      peak = Math.max(peak, descriptorsUnderHome())
      if (sampling) setImmediate(sample)
    }
    sample()
    await h.tick()
    sampling = false
    expect(h.monitor.getState().entries).toHaveLength(2 * SESSIONS)
    expect(h.monitor.stats().peakOpenFiles).toBeLessThanOrEqual(MAX_OPEN)
    expect(peak).toBeGreaterThan(0)
    expect(peak).toBeLessThanOrEqual(MAX_OPEN)
    expect(descriptorsUnderHome()).toBe(0)
  }, 60_000)
})

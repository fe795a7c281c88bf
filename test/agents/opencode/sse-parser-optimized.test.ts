import { expect, it } from 'vitest'
import { createSseParser } from '../../../src/agents/opencode/sse-parser.js'

// A file of its own, so the parser's code is optimized by this shape of input alone (after
// sse-parser-bounds' long-line cases Node 20 optimized the old scan differently and it stayed
// linear; run alone, this test failed on it with median ratios of 62 and 65):
// the old scan, an indexOf per line end with the CR search redone once passed, was linear in its
// first runs and quadratic once optimized (200,000 short lines and one CR: ≈20 ms, then 1.2–2.3 s,
// while 25,000 lines stayed ≈20 ms). Timed after that point.

const lines = (count: number): string => `${'x:\n'.repeat(count)}\r`

/** Milliseconds of this process's CPU time (not wall time: another process's load does not count). */
function timed(count: number): number {
  const text = lines(count)
  const started = process.cpuUsage()
  const events = createSseParser().push(text)
  const used = process.cpuUsage(started)
  expect(events).toEqual([])
  return (used.user + used.system) / 1000
}

it('many short lines with one CR stay linear once the parser is optimized', () => {
  for (let round = 0; round < 8; round += 1) timed(round % 2 === 0 ? 200_000 : 25_000)
  // CPU time, and the fastest of three runs of each size: wall time on a loaded machine read one pair
  // at 28× (a CI run with four workers), and the quadratic scan has no fast run once optimized (its
  // fastest 200,000-line run is still ≈1.2 s).
  let one = Number.POSITIVE_INFINITY
  let eight = Number.POSITIVE_INFINITY
  for (let pair = 0; pair < 3; pair += 1) {
    one = Math.min(one, timed(25_000))
    eight = Math.min(eight, timed(200_000))
  }
  // 8× the lines: linear is 8×, a rescan per line 64×.
  expect(eight / Math.max(one, 0.5), `fastest runs: ${one.toFixed(1)} ms and ${eight.toFixed(1)} ms`).toBeLessThan(24)
}, 60_000)

import { expect, it } from 'vitest'
import { createSseParser } from '../../../src/agents/opencode/sse-parser.js'

// A file of its own, so the parser's code is optimized by this shape of input alone (after
// sse-parser-bounds' long-line cases Node 20 optimized the old scan differently and it stayed
// linear; run alone, this test failed on it with median ratios of 62 and 65):
// the old scan, an indexOf per line end with the CR search redone once passed, was linear in its
// first runs and quadratic once optimized (200,000 short lines and one CR: ≈20 ms, then 1.2–2.3 s,
// while 25,000 lines stayed ≈20 ms). Timed after that point, as the median of three pairs.

const lines = (count: number): string => `${'x:\n'.repeat(count)}\r`

function timed(count: number): number {
  const started = performance.now()
  const events = createSseParser().push(lines(count))
  const elapsed = performance.now() - started
  expect(events).toEqual([])
  return elapsed
}

it('many short lines with one CR stay linear once the parser is optimized', () => {
  for (let round = 0; round < 8; round += 1) timed(round % 2 === 0 ? 200_000 : 25_000)
  const ratios: number[] = []
  for (let pair = 0; pair < 3; pair += 1) {
    const one = timed(25_000)
    const eight = timed(200_000)
    ratios.push(eight / Math.max(one, 0.5))
  }
  ratios.sort((a, b) => a - b)
  // 8× the lines: linear is 8×, a rescan per line 64×.
  expect(ratios[1], `ratios ${ratios.map((ratio) => ratio.toFixed(1)).join(', ')}`).toBeLessThan(24)
}, 60_000)

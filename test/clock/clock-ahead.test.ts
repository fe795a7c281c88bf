import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * `npm run test:clock-ahead` (scripts/test-clock-ahead.sh) reruns the clock-reading suites with the
 * process clock a year ahead. This test proves the shift took: the kernel stamps a new file with the
 * real time, which must then lie far behind the process's `Date.now()`. Without it, a broken
 * faketime setup would make that second run prove nothing.
 */
describe.runIf(process.env.CHATRAIL_CLOCK_AHEAD !== undefined)('the clock-ahead run (CHATRAIL_CLOCK_AHEAD set)', () => {
  it('runs with the process clock at least 300 days ahead of the kernel file clock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-clock-'))
    try {
      const file = join(dir, 'stamp')
      writeFileSync(file, '')
      const aheadMs = Date.now() - statSync(file).mtimeMs
      expect(aheadMs).toBeGreaterThan(300 * 86_400_000)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

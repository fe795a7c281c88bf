import { statSync, utimesSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { createTranscriptTail } from '../../../src/agents/claude-code/transcript-tail.js'
import { tempDir, transcript } from '../claude-code/transcript-builder.js'
import { placeClaude } from '../monitor/fake-home.js'
import { createHarness } from '../monitor/harness.js'

/**
 * Issue 15 item 11: a transcript rewritten in place with the same length (keeping its first 256
 * bytes and a newline at the old end) is seen: the tail compares the last bytes it read on every
 * read, and a file that did not grow must keep its mtime and ctime; the monitor's stamp has ctime.
 */

const LONG = 'p'.repeat(400) // the first line alone is longer than the 256-byte head fingerprint

/** Two transcripts of the same byte length: one still running a tool, one finished. */
function sameLength(): { working: string; completed: string } {
  const working = transcript().prompt(LONG).toolUse('t1', 'Bash', { command: 'ls' }).jsonl()
  const done = transcript().prompt(LONG).text('done').jsonl()
  const [longer, shorter] = working.length >= done.length ? [working, done] : [done, working]
  // Trailing spaces inside the last line keep it valid JSON and make both files one length.
  const padded = `${shorter.slice(0, -1)}${' '.repeat(longer.length - shorter.length)}\n`
  return working.length >= done.length ? { working: longer, completed: padded } : { working: padded, completed: longer }
}

describe('same-size rewrite in place', () => {
  it('the tail sees a rewritten last line of the same length, and reads the file again', async () => {
    const tmp = tempDir()
    try {
      const { working, completed } = sameLength()
      expect(Buffer.byteLength(working)).toBe(Buffer.byteLength(completed))
      const path = tmp.write('t.jsonl', working)
      const tail = createTranscriptTail(path)
      expect(await tail.read()).toMatchObject({ state: 'working' })
      writeFileSync(path, completed)
      const after = await tail.read()
      expect(after).toMatchObject({ state: 'needs_input', status: 'completed', reset: 'rewritten' })
    } finally {
      tmp.cleanup()
    }
  })

  it('the tail sees a rewrite that keeps both ends and the length, by the changed mtime', async () => {
    const tmp = tempDir()
    try {
      const lines = transcript().prompt(LONG).prompt('middle AAAA').text('x'.repeat(300)).jsonl()
      const path = tmp.write('t.jsonl', lines)
      const tail = createTranscriptTail(path)
      expect((await tail.read()).messages.map((m) => m.text)).toContain('middle AAAA')
      const before = statSync(path)
      writeFileSync(path, lines.replace('middle AAAA', 'middle BBBB'))
      // Made explicit: timestamps are coarse (a write in the same few ms can keep the old mtime).
      utimesSync(path, before.atime, new Date(before.mtimeMs + 5000))
      const after = await tail.read()
      expect(after.reset).toBe('rewritten')
      expect(after.messages.map((m) => m.text)).toContain('middle BBBB')
    } finally {
      tmp.cleanup()
    }
  })

  it('the monitor re-reads a same-size rewrite even when the writer restored the mtime (ctime is in the stamp)', async () => {
    // The clock just after the builder's lines (2026-07-01T10:00:0xZ), so the session is live.
    const h = createHarness(Date.parse('2026-07-01T10:00:05Z'))
    try {
      const placed = placeClaude(h.home, 'plain-turn')
      const { working, completed } = sameLength()
      // A whole-second mtime, which the rewriter can set back exactly.
      const mtime = Math.floor(Date.now() / 1000)
      writeFileSync(placed.path, working)
      utimesSync(placed.path, mtime, mtime)
      await h.tick()
      expect(h.entry(placed.key)).toMatchObject({ state: 'working' })
      const before = statSync(placed.path)
      // Past the file system's timestamp granularity, so the rewrite's ctime differs.
      await sleep(30)
      writeFileSync(placed.path, completed)
      utimesSync(placed.path, mtime, mtime)
      expect(statSync(placed.path)).toMatchObject({ mtimeMs: before.mtimeMs, size: before.size, ino: before.ino })
      h.at(h.now() + 1000)
      await h.tick()
      // No live process: the finished turn is the end of the session, as a fresh read says.
      expect(h.entry(placed.key)).toMatchObject({ status: 'completed', endedBy: 'turn' })
    } finally {
      h.home.cleanup()
    }
  })
})

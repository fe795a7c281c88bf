import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { generateTranscript } from './generate-transcript.js'
import { tempDir } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/**
 * Robustness (invariant 7), the part that writes a generated transcript of 160 MB to disk and
 * measures the heap around reading it: a file of its own (from robustness.test.ts) in the
 * `integration` project, which `npm test` runs and the `npm run test:unit` inner loop leaves out
 * (~6.5 s of it).
 */

let tmp: TempDir
beforeAll(() => {
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

/** `gc()` inside a vitest fork, without command-line flags. */
function collectGarbage(): void {
  setFlagsFromString('--expose_gc')
  const gc = runInNewContext('gc') as () => void
  gc()
}

// 700 MB is bigger than V8's longest string (2^29 chars): reading it into one string would throw.
// It takes ~20 s on 2 cores, so the default run uses 160 MB and the same memory bounds;
// CHATRAIL_BIG_TRANSCRIPT=1 runs the full 700 MB.
const BIG_MB = process.env.CHATRAIL_BIG_TRANSCRIPT === '1' ? 700 : 160

describe(`a generated ${BIG_MB} MB transcript`, () => {
  it('is read streamed, in memory bounded by the messages kept, not by the file size', async () => {
    const path = join(tmp.dir, 'big.jsonl')
    const generated = await generateTranscript(path, BIG_MB * 1024 * 1024)
    collectGarbage()
    const baseline = process.memoryUsage()
    let peakRss = baseline.rss
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss)
    }, 20)
    // The whole file, streamed: the window a file this large gets by default is turned off here
    // (read-window.test.ts tests the window; this tests that even a whole read never holds the file).
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: path, windowThresholdBytes: Number.POSITIVE_INFINITY })
    clearInterval(sampler)
    collectGarbage()
    const retained = process.memoryUsage().heapUsed - baseline.heapUsed
    rmSync(path)
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed', warnings: [] })
    expect(chat.cursor).toEqual({ offset: generated.bytes, lines: generated.lines })
    expect(chat.messages).toHaveLength(generated.turns * 4)
    // 32 KiB tool outputs are kept as 4 KiB: what stays is ~1/8 of the file, plus objects.
    expect(retained).toBeLessThan(generated.bytes * 0.2)
    expect(peakRss - baseline.rss).toBeLessThan(generated.bytes * 0.5)
    console.log(`${BIG_MB} MB transcript: retained heap ${(retained / 2 ** 20).toFixed(0)} MB, peak RSS growth ${((peakRss - baseline.rss) / 2 ** 20).toFixed(0)} MB`)
  }, BIG_MB * 1000)

  it('with a message window, keeps only the newest messages (seqs stay absolute)', async () => {
    const path = join(tmp.dir, 'windowed.jsonl')
    const generated = await generateTranscript(path, 8 * 1024 * 1024)
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: path, maxMessages: 50 })
    rmSync(path)
    expect(chat.messages.length).toBeLessThanOrEqual(100)
    expect(chat.messages.at(-1)?.seq).toBe(generated.turns * 4)
    expect(chat.messages[0]?.seq).toBe(generated.turns * 4 - chat.messages.length + 1)
    expect(chat.state).toBe('needs_input')
  }, 60_000)
})

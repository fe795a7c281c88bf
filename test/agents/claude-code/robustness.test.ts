import { appendFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { generateTranscript } from './generate-transcript.js'
import { tempDir, transcript } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/**
 * Robustness (invariant 7): malformed and half-written lines are warnings, an over-cap line is a
 * clear error, and a huge transcript is streamed in bounded memory.
 */

let tmp: TempDir
beforeAll(() => {
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

describe('readChat robustness', () => {
  it('skips malformed lines and non-object JSON, counting each in warnings, and keeps the chat', async () => {
    const path = tmp.write('bad.jsonl', `${JSON.stringify(transcript().prompt('hi').lines[0])}\n{"type":"assistant",\n[1,2]\n"just a string"\n\u0000\u0001 binary\n`)
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: path })
    expect(chat).toMatchObject({ state: 'working', messages: [{ text: 'hi' }] })
    expect(chat.warnings).toHaveLength(4)
    expect(chat.warnings[0]).toMatch(/line 2 .* is not valid JSON/)
    expect(chat.warnings.filter((w) => w.includes('not an object'))).toHaveLength(2)
  })

  it('ignores records of unknown types and fields of unexpected shapes', async () => {
    const t = transcript().prompt('hi')
    t.raw({ type: 'assistant', uuid: 'weird-1', message: 'not an object' })
    t.raw({ type: 'assistant', uuid: 'weird-2', message: { content: [null, 5, { type: 'tool_use' }, { type: 'text', text: 7 }] } })
    t.raw({ type: 'user', uuid: 'weird-3', message: { content: [{ type: 'tool_result' }] } })
    t.raw({ type: 'future-record', uuid: 'weird-4', payload: {} })
    t.text('hello')
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: tmp.write('odd.jsonl', t.jsonl()) })
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed', warnings: [] })
    expect(chat.messages.map((m) => m.text)).toEqual(['hi', 'hello'])
  })

  it('a single line over the cap is skipped with a placeholder message and a warning, and the lines after it are read', async () => {
    const lines = transcript().prompt('hi').text('hello').lines
    const path = tmp.write('huge-line.jsonl', `${JSON.stringify(lines[0])}\n`)
    appendFileSync(path, `${JSON.stringify({ type: 'user', message: { content: 'y'.repeat(4096) } })}\n${JSON.stringify(lines[1])}\n`)
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: path, maxLineBytes: 1024 })
    expect(chat.messages.map((m) => [m.kind, m.text])).toEqual([
      ['text', 'hi'],
      ['lifecycle', expect.stringMatching(/^Line 2 \(\d+ bytes\) is longer than the 1024 bytes line cap and was skipped/)],
      ['text', 'hello'],
    ])
    expect(chat).toMatchObject({ state: 'needs_input', status: 'completed' })
    expect(chat.warnings).toEqual([expect.stringContaining('line 2 (at byte')])
  })

  it('cuts long tool outputs in messages (display only) and says how much was cut', async () => {
    const t = transcript().prompt('read').toolUse('t1', 'Read', {}).toolResult('t1', 'z'.repeat(10_000))
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: tmp.write('long-out.jsonl', t.jsonl()), maxToolOutputChars: 100 })
    expect(chat.messages[1]?.tool?.output).toBe(`${'z'.repeat(100)}… (9900 more chars)`)
  })
})

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

import { appendFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { tempDir, transcript } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/**
 * Robustness (invariant 7): malformed and half-written lines are warnings, an over-cap line is a
 * clear error; a huge transcript is streamed in bounded memory (big-transcript.test.ts).
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

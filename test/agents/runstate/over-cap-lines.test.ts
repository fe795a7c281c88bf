import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { observeChat } from '../../../src/agents/monitor/session-source.js'
import { createJsonlTail } from '../../../src/agents/runstate/jsonl-tail.js'
import type { JsonlOverCapLine, JsonlRecord, JsonlTail } from '../../../src/agents/runstate/jsonl-tail.js'
import { askInput, transcript } from '../claude-code/transcript-builder.js'

/**
 * Issue 15 item 4. The policy for a line longer than `maxLineBytes`, the same for a full read and
 * for any split of the file into appends: the line is skipped (never parsed, never held in memory
 * past the cap), the reader is told (`onOverCap`, with its line number, byte offset and length)
 * and says so in `warnings`; every line after it is read. Nothing is thrown, nothing is lost
 * silently, and a read never freezes.
 */

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-overcap-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

interface Drained {
  records: JsonlRecord[]
  overCap: JsonlOverCapLine[]
}

async function drain(tail: JsonlTail, into: Drained = { records: [], overCap: [] }): Promise<Drained> {
  await tail.read({ onRecord: (r) => into.records.push(r), onOverCap: (o) => into.overCap.push(o) })
  return into
}

const CAP = 64
const big = (n: number): string => JSON.stringify({ big: 'x'.repeat(n) })

describe('over-cap lines: skipped with a warning, by full and incremental reads alike', () => {
  it('the issue\'s case: the third line is over the cap; three reads in a row all return, and line 4 is never lost', async () => {
    const file = join(dir, 't.jsonl')
    writeFileSync(file, `{"n":1}\n{"n":2}\n${big(200)}\n{"n":4}\n`)
    const tail = createJsonlTail(file, { maxLineBytes: CAP, chunkBytes: 16 })
    const first = await drain(tail)
    expect(first.records.map((r) => r.value)).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }])
    expect(first.records.map((r) => r.line)).toEqual([1, 2, 4])
    expect(first.overCap).toEqual([{ line: 3, offset: 16, bytes: big(200).length }])
    expect(tail.warnings()).toEqual([expect.stringMatching(/t\.jsonl: line 3 \(at byte 16\) is \d+ bytes, over the 64-byte line cap; skipped, not parsed/)])
    expect(tail.overCapLines()).toBe(1)
    expect((await drain(tail)).records).toEqual([])
    appendFileSync(file, '{"n":5}\n')
    expect((await drain(tail)).records.map((r) => r.value)).toEqual([{ n: 5 }])
    expect(tail.cursor()).toEqual({ offset: Buffer.byteLength(`{"n":1}\n{"n":2}\n${big(200)}\n{"n":4}\n{"n":5}\n`), lines: 5 })
  })

  it('an over-cap line still being written is held (not in memory) and reported once its newline lands', async () => {
    const file = join(dir, 't.jsonl')
    writeFileSync(file, `{"n":1}\n${big(100).slice(0, 90)}`)
    const tail = createJsonlTail(file, { maxLineBytes: CAP, chunkBytes: 16 })
    const first = await drain(tail)
    expect(first.records).toHaveLength(1)
    expect(first.overCap).toEqual([])
    appendFileSync(file, `${big(100).slice(90)}\n{"n":3}\n`)
    const second = await drain(tail)
    expect(second.overCap).toEqual([{ line: 2, offset: 8, bytes: big(100).length }])
    expect(second.records.map((r) => r.value)).toEqual([{ n: 3 }])
  })

  it('property: any chunking of a file with over-cap lines gives exactly the full read (records, over-cap lines, warnings, cursor)', async () => {
    const lineArb = fc.oneof(
      { weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 12 }), fc.integer())).map((o) => JSON.stringify(o)) },
      { weight: 1, arbitrary: fc.constantFrom('', '{broken', '"ünïcødé ✓"') },
      // Lines right at, just over and far over the cap, valid JSON or not.
      { weight: 2, arbitrary: fc.integer({ min: CAP - 12, max: CAP * 4 }).map((n) => big(n)) },
      { weight: 1, arbitrary: fc.integer({ min: CAP - 2, max: CAP + 2 }).map((n) => 'z'.repeat(n)) },
    )
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 10 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), fc.integer({ min: 1, max: 40 }), async (lines, trailing, cuts, chunkBytes) => {
        const bytes = Buffer.from(lines.join('\n') + (trailing && lines.length > 0 ? '\n' : ''))
        const full = join(dir, 'full.jsonl')
        writeFileSync(full, bytes)
        const whole = createJsonlTail(full, { maxLineBytes: CAP })
        const expected = await drain(whole)

        const split = join(dir, 'split.jsonl')
        writeFileSync(split, '')
        const tail = createJsonlTail(split, { maxLineBytes: CAP, chunkBytes })
        const got: Drained = { records: [], overCap: [] }
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        let at = 0
        for (const point of [...points, bytes.length]) {
          appendFileSync(split, bytes.subarray(at, point))
          at = point
          await drain(tail, got)
        }
        expect(got).toEqual(expected)
        expect(tail.cursor()).toEqual(whole.cursor())
        expect(tail.warnings()).toEqual(whole.warnings().map((w) => w.replace(full, split)))
        const overCap = lines.slice(0, trailing ? lines.length : lines.length - 1).filter((line) => Buffer.byteLength(line) > CAP).length
        expect(expected.overCap).toHaveLength(overCap)
      }),
      { numRuns: 120 },
    )
  })
})

describe('over-cap lines: the placeholder moves no state', () => {
  it('a question stays pending when an over-cap line follows it (reader and monitor)', async () => {
    const file = join(dir, 'q.jsonl')
    writeFileSync(file, `${transcript().prompt('pick').toolUse('t1', 'AskUserQuestion', askInput).jsonl()}${big(4000)}\n`)
    const chat = await readChat({ runId: 'r', runtimeDir: '', transcriptPath: file, maxLineBytes: 2048 })
    expect(chat.messages.map((m) => m.kind)).toEqual(['text', 'dialog', 'lifecycle'])
    expect(chat).toMatchObject({ state: 'question', status: 'waiting_for_input' })
    expect(observeChat(chat).pendingDialog?.toolId).toBe('t1')
  })
})

import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TranscriptGoneError } from '../../../src/agents/runstate/errors.js'
import { createJsonlTail } from '../../../src/agents/runstate/jsonl-tail.js'
import type { JsonlRecord, JsonlResetReason, JsonlTail } from '../../../src/agents/runstate/jsonl-tail.js'

let dir: string
let file: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-jsonl-'))
  file = join(dir, 't.jsonl')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function drain(tail: JsonlTail): Promise<{ records: JsonlRecord[]; resets: JsonlResetReason[] }> {
  const records: JsonlRecord[] = []
  const resets: JsonlResetReason[] = []
  await tail.read({ onRecord: (r) => records.push(r), onReset: (why) => resets.push(why) })
  return { records, resets }
}

describe('createJsonlTail', () => {
  it('yields each complete line with its 1-based number and byte offset', async () => {
    writeFileSync(file, '{"a":1}\n{"b":"é"}\n')
    const tail = createJsonlTail(file)
    const { records } = await drain(tail)
    expect(records).toEqual([
      { value: { a: 1 }, line: 1, offset: 0 },
      { value: { b: 'é' }, line: 2, offset: 8 },
    ])
    expect(tail.cursor()).toEqual({ offset: Buffer.byteLength('{"a":1}\n{"b":"é"}\n'), lines: 2 })
  })

  it('reads only appended bytes and buffers a partial last line until its newline', async () => {
    writeFileSync(file, '{"a":1}\n{"b":')
    const tail = createJsonlTail(file)
    const first = await tail.read({ onRecord: () => undefined })
    expect(first).toMatchObject({ records: 1, pendingBytes: 5, cursor: { offset: 8, lines: 1 } })
    appendFileSync(file, '2}\n')
    const { records } = await drain(tail)
    expect(records).toEqual([{ value: { b: 2 }, line: 2, offset: 8 }])
    expect((await drain(tail)).records).toEqual([])
  })

  it('skips blank lines silently and counts malformed ones as warnings, never throwing', async () => {
    writeFileSync(file, '{"a":1}\n\n{oops\n   \n{"b":2}\n')
    const tail = createJsonlTail(file)
    const { records } = await drain(tail)
    expect(records.map((r) => r.line)).toEqual([1, 5])
    expect(tail.malformedLines()).toBe(1)
    expect(tail.warnings()).toEqual([expect.stringContaining('line 3 (at byte 9) is not valid JSON')])
  })

  it('describes the first malformed lines and then only counts them', async () => {
    writeFileSync(file, 'x\n'.repeat(5))
    const tail = createJsonlTail(file, { maxDetailedWarnings: 2 })
    await drain(tail)
    expect(tail.warnings()).toHaveLength(3)
    expect(tail.warnings()[2]).toContain('3 more malformed lines skipped')
  })

  it('skips a line over the cap with a warning naming the line, and reads on (policy: over-cap-lines.test.ts)', async () => {
    writeFileSync(file, `{"a":1}\n{"big":"${'x'.repeat(100)}"}\n{"c":3}\n`)
    const tail = createJsonlTail(file, { maxLineBytes: 50, chunkBytes: 16 })
    const { records } = await drain(tail)
    expect(records.map((r) => r.line)).toEqual([1, 3])
    expect(tail.overCapLines()).toBe(1)
    expect(tail.warnings()).toEqual([expect.stringContaining('line 2 (at byte 8) is 110 bytes, over the 50-byte line cap; skipped')])

    writeFileSync(file, `{"a":"${'y'.repeat(100)}`)
    const partial = createJsonlTail(file, { maxLineBytes: 50, chunkBytes: 16 })
    await expect(partial.read({ onRecord: () => undefined })).resolves.toMatchObject({ records: 0, pendingBytes: 106, cursor: { offset: 0, lines: 0 } })
  })

  it('throws TranscriptGoneError for a missing file', async () => {
    const error = await createJsonlTail(join(dir, 'nope.jsonl')).read({ onRecord: () => undefined }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TranscriptGoneError)
    expect(TranscriptGoneError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ code: 'TRANSCRIPT_GONE' })
  })

  it('detects truncation and reads the file again from byte 0', async () => {
    writeFileSync(file, '{"a":1}\n{"a":2}\n')
    const tail = createJsonlTail(file)
    await drain(tail)
    writeFileSync(file, '{"z":9}\n')
    const { records, resets } = await drain(tail)
    expect(resets).toEqual(['truncated'])
    expect(records).toEqual([{ value: { z: 9 }, line: 1, offset: 0 }])
  })

  it('detects a replaced file (new inode) even when it is longer', async () => {
    writeFileSync(file, '{"a":1}\n')
    const tail = createJsonlTail(file)
    await drain(tail)
    const other = join(dir, 'other.jsonl')
    writeFileSync(other, '{"a":1}\n{"b":2}\n{"c":3}\n')
    renameSync(other, file)
    const { records, resets } = await drain(tail)
    expect(resets).toEqual(['replaced'])
    expect(records.map((r) => r.line)).toEqual([1, 2, 3])
  })

  it('detects an in-place rewrite of the same inode', async () => {
    writeFileSync(file, '{"a":1}\n')
    const tail = createJsonlTail(file)
    await drain(tail)
    writeFileSync(file, '{"q":1}\n{"r":2}\n')
    const { records, resets } = await drain(tail)
    expect(resets).toEqual(['rewritten'])
    expect(records.map((r) => r.value)).toEqual([{ q: 1 }, { r: 2 }])
  })

  it('property: any split of the bytes into appends yields what one full read yields', async () => {
    const lineArb = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 12 }), fc.integer())).map((o) => JSON.stringify(o)),
      fc.constantFrom('', '  ', '{broken', 'null', '"ünïcødé ✓"', '{"emoji":"🙂🙂"}'),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { maxLength: 12 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 9 }), async (lines, trailing, cuts, chunkBytes) => {
        const bytes = Buffer.from(lines.join('\n') + (trailing && lines.length > 0 ? '\n' : ''))
        const full = join(dir, 'full.jsonl')
        writeFileSync(full, bytes)
        const whole = createJsonlTail(full, { chunkBytes: 64 })
        const expected = await drain(whole)

        const split = join(dir, 'split.jsonl')
        writeFileSync(split, '')
        const tail = createJsonlTail(split, { chunkBytes })
        const got: JsonlRecord[] = []
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        let at = 0
        for (const point of [...points, bytes.length]) {
          appendFileSync(split, bytes.subarray(at, point))
          at = point
          const step = await drain(tail)
          expect(step.resets).toEqual([])
          got.push(...step.records)
        }
        expect(got).toEqual(expected.records)
        expect(tail.cursor()).toEqual(whole.cursor())
        expect(tail.warnings()).toEqual(whole.warnings().map((w) => w.replace(full, split)))
      }),
      { numRuns: 150 },
    )
  })
})

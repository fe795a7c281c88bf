import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTranscriptTail } from '../../../src/agents/claude-code/transcript-tail.js'
import type { TranscriptView } from '../../../src/agents/claude-code/transcript-tail.js'
import { recordedFixture, recordedFixtureNames } from './recorded-fixtures.js'
import { SESSION, tempDir, transcript } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/** The incremental tail: appended bytes only, and always what a full read of the same bytes gives. */

let tmp: TempDir
beforeAll(() => {
  tmp = tempDir()
})
afterAll(() => tmp.cleanup())

/** Everything of a view that a caller can observe, as plain data. */
function plain(view: TranscriptView): unknown {
  const { hasToolId: _hasToolId, reset: _reset, ...rest } = view
  return JSON.parse(JSON.stringify(rest)) as unknown
}

async function fullRead(bytes: Buffer, name: string): Promise<TranscriptView> {
  const path = join(tmp.dir, name)
  writeFileSync(path, bytes)
  return createTranscriptTail(path).read()
}

// Real files (including one written out of order) plus a synthetic one with every line kind.
const synthetic = transcript().prompt('hi').text('a', { id: 'm1', stop: 'tool_use' }).text('b', { id: 'm1', stop: 'tool_use' }).toolUse('t1', 'Bash', {}, { msgId: 'm1' })
synthetic.meta({ type: 'queue-operation', operation: 'enqueue', content: 'x', sessionId: SESSION })
synthetic.toolResult('t1', 'out').toolUse('q1', 'AskUserQuestion', { questions: [{ question: 'Q?', options: [{ label: 'A' }, { label: 'B' }], multiSelect: true }] })
synthetic.toolResult('q1', 'answered', { result: { answers: { 'Q?': 'B, A, more' } } }).echo('/mcp', '', 'none').interrupt()
const syntheticLines = synthetic.lines.map((l) => JSON.stringify(l))
// Move two assistant lines before their prompt, as 2.1.197 sometimes writes them, and add junk.
const reordered = [syntheticLines[1], syntheticLines[2], syntheticLines[0], '{"half":', ...syntheticLines.slice(3)].join('\n') + '\n'

const sources: Array<{ name: string; bytes: Buffer }> = [
  ...recordedFixtureNames().map((name) => ({ name, bytes: readFileSync(recordedFixture(name).transcript) })),
  { name: 'synthetic-reordered', bytes: Buffer.from(reordered) },
]

describe('createTranscriptTail', () => {
  it('property: any split of a transcript into appends, fed to the tail, ends in the full read\'s view', async () => {
    const expected = new Map<string, unknown>()
    for (const source of sources) expected.set(source.name, plain(await fullRead(source.bytes, `${source.name}.full.jsonl`)))
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sources), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), async (source, fractions) => {
        run += 1
        const path = join(tmp.dir, `split-${run}.jsonl`)
        writeFileSync(path, '')
        const tail = createTranscriptTail(path, { chunkBytes: 97 })
        const cuts = [...new Set(fractions.map((f) => Math.floor(f * source.bytes.length)))].sort((a, b) => a - b)
        let at = 0
        let view: TranscriptView | undefined
        for (const cut of [...cuts, source.bytes.length]) {
          appendFileSync(path, source.bytes.subarray(at, cut))
          at = cut
          view = await tail.read()
          expect(view.reset).toBeUndefined()
        }
        expect(plain(view as TranscriptView)).toEqual(JSON.parse(JSON.stringify(expected.get(source.name)).replaceAll(`${source.name}.full.jsonl`, `split-${run}.jsonl`)))
      }),
      { numRuns: 120 },
    )
  })

  it('seqs are stable as the file grows: every earlier snapshot is a prefix of the final one (by seq, kind, role)', async () => {
    for (const name of ['question-answered', 'plan-approved', 'headless-tool-use', 'clear']) {
      const bytes = readFileSync(recordedFixture(name).transcript)
      const path = join(tmp.dir, `grow-${name}.jsonl`)
      writeFileSync(path, '')
      const tail = createTranscriptTail(path)
      const snapshots: TranscriptView[] = []
      for (const line of bytes.toString('utf8').split(/(?<=\n)/)) {
        appendFileSync(path, line)
        snapshots.push(await tail.read())
      }
      const final = (snapshots.at(-1) as TranscriptView).messages.map((m) => [m.seq, m.kind, m.role])
      for (const snap of snapshots) expect(final.slice(0, snap.messages.length), name).toEqual(snap.messages.map((m) => [m.seq, m.kind, m.role]))
    }
  })

  it('a half-written last line waits for its newline and is not a warning', async () => {
    const path = join(tmp.dir, 'half.jsonl')
    const lines = transcript().prompt('hi').text('hello').jsonl()
    writeFileSync(path, lines.slice(0, lines.length - 20))
    const tail = createTranscriptTail(path)
    const first = await tail.read()
    expect(first).toMatchObject({ state: 'working', warnings: [] })
    appendFileSync(path, lines.slice(lines.length - 20))
    expect(await tail.read()).toMatchObject({ state: 'needs_input', status: 'completed' })
  })

  it('starts over when the file is replaced (a new fold, seq from 1 again)', async () => {
    const path = join(tmp.dir, 'replaced.jsonl')
    writeFileSync(path, transcript().prompt('one').text('first').jsonl())
    const tail = createTranscriptTail(path)
    expect((await tail.read()).messages).toHaveLength(2)
    const other = join(tmp.dir, 'replacement.jsonl')
    writeFileSync(other, transcript().prompt('two').jsonl())
    renameSync(other, path)
    const view = await tail.read()
    expect(view.reset).toBe('replaced')
    expect(view.messages.map((m) => [m.seq, m.text])).toEqual([[1, 'two']])
  })
})

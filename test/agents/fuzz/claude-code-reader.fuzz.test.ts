import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/claude-code/read-chat.js'
import { createTranscriptTail } from '../../../src/agents/claude-code/transcript-tail.js'
import type { TranscriptView } from '../../../src/agents/claude-code/transcript-tail.js'
import { NotARegularFileError } from '../../../src/agents/runstate/regular-file.js'
import { detectAgent } from '../../../src/cli/inspect.js'
import { appendInSteps, BOUNDED, cutPoints, deepJson, FUZZ_LINE_CAP, hostileLine, makeFifo, validUsage } from './fuzz-files.js'

/**
 * Fuzz suite of the Claude Code transcript reader (issue 15): generated transcripts whose lines
 * are real record shapes with hostile values (uuids that collide in their first 8 and last 5 hex
 * digits, parents that never come, token counts of -1, 1e309, 2.5 and 2^60, tool inputs nested
 * thousands of levels, lines over the line cap, junk and half-written lines), read whole and as
 * any series of appends. Bounded by time (fuzz-files.ts), so it runs in the normal suite.
 */

const SESSION = '11111111-2222-4333-8444-555555555555'
/** Distinct uuids that agree in their first 8 and last 5 hex digits (the old fold's key). */
const COLLIDING = Array.from({ length: 6 }, (_, i) => `aaaaaaaa-${String(i).repeat(4)}-4${String(i).repeat(3)}-8${String(i).repeat(3)}-${String(i).repeat(7)}bbbbb`)
const uuidArb = fc.constantFrom(...COLLIDING)
const parentArb = fc.option(uuidArb, { nil: null })
const countArb = fc.oneof(fc.nat({ max: 5000 }), fc.constantFrom(-1, 2.5, 2 ** 60, 'INF', '12', null))
const textArb = fc.string({ maxLength: 30 })
const toolIdArb = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3')
const askInput = { questions: [{ question: 'Which?', header: 'Pick', multiSelect: false, options: [{ label: 'A', description: 'a' }, { label: 'B', description: 'b' }] }] }

type Line = Record<string, unknown>
const envelope = (type: string, uuid: string, parentUuid: string | null, extra: Line): Line => ({
  type,
  uuid,
  parentUuid,
  isSidechain: false,
  sessionId: SESSION,
  cwd: '/w',
  timestamp: '2026-07-01T10:00:00.000Z',
  ...extra,
})

const recordArb: fc.Arbitrary<Line> = fc.oneof(
  fc.tuple(uuidArb, parentArb, textArb).map(([u, p, text]) => envelope('user', u, p, { message: { role: 'user', content: text } })),
  fc.tuple(uuidArb, parentArb, textArb, fc.constantFrom('end_turn', null, 'tool_use', 'max_tokens'), countArb, countArb, fc.constantFrom('msg_1', 'msg_2')).map(([u, p, text, stop, input, output, id]) =>
    envelope('assistant', u, p, { message: { id, role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop, usage: { input_tokens: input, output_tokens: output } } }),
  ),
  fc.tuple(uuidArb, parentArb, toolIdArb, fc.constantFrom('Bash', 'AskUserQuestion', 'ExitPlanMode', 'Read'), fc.constantFrom<unknown>({}, askInput, { command: 'ls' }, 'DEEP', null, 7)).map(([u, p, id, name, input]) =>
    envelope('assistant', u, p, { message: { id: 'msg_t', role: 'assistant', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use' } }),
  ),
  fc.tuple(uuidArb, parentArb, toolIdArb, textArb, fc.boolean()).map(([u, p, id, content, isError]) =>
    envelope('user', u, p, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } }),
  ),
  fc.tuple(uuidArb, parentArb, fc.constantFrom('turn_duration', 'stop_hook_summary', 'api_error', 'compact_boundary', 'local_command')).map(([u, p, subtype]) => envelope('system', u, p, { subtype, content: 'x' })),
  fc.tuple(uuidArb, parentArb).map(([u, p]) => envelope('user', u, p, { isSidechain: true, message: { role: 'user', content: 'side' } })),
)

/** A line of the file: a record (its placeholders made hostile as text) or a hostile line. */
const lineArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: recordArb.map((record) => JSON.stringify(record).replace('"input":"DEEP"', `"input":${deepJson(5000)}`).replaceAll('"INF"', '1e309')) },
  { weight: 1, arbitrary: hostileLine },
)

const fileArb = fc.tuple(fc.array(lineArb, { maxLength: 24 }), fc.boolean()).map(([lines, trailing]) => Buffer.from(lines.join('\n') + (trailing && lines.length > 0 ? '\n' : '')))

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-fuzz-cc-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What a view says, without its functions, with the path made neutral. */
function comparable(view: TranscriptView, path: string): unknown {
  const { hasToolId: _ignored, ...rest } = view
  return JSON.parse(JSON.stringify(rest).replaceAll(path, '<file>')) as unknown
}

describe('fuzz: Claude Code transcript reader', () => {
  it('never throws, and what it returns is sane: serializable, valid token counts, increasing seqs, known states', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (bytes) => {
        const path = join(dir, 'full.jsonl')
        writeFileSync(path, bytes)
        const chat = await readChat({ runId: 'fuzz', runtimeDir: '', transcriptPath: path, maxLineBytes: FUZZ_LINE_CAP })
        expect(() => JSON.stringify(chat)).not.toThrow()
        expect(validUsage(chat.usage as unknown as Record<string, number>)).toBe(true)
        expect(['idle', 'working', 'needs_input', 'question', 'ended']).toContain(chat.state)
        const seqs = chat.messages.map((m) => m.seq)
        expect(seqs.every((seq, i) => Number.isInteger(seq) && seq > 0 && (i === 0 || seq > (seqs[i - 1] as number)))).toBe(true)
      }),
      BOUNDED,
    )
  }, 60_000)

  it('any split of the file into appends ends in exactly the full read', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, fc.array(fc.nat(), { maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (bytes, cuts, chunkBytes) => {
        const full = join(dir, 'whole.jsonl')
        writeFileSync(full, bytes)
        const expected = await createTranscriptTail(full, { maxLineBytes: FUZZ_LINE_CAP }).read()
        const split = join(dir, 'split.jsonl')
        const tail = createTranscriptTail(split, { maxLineBytes: FUZZ_LINE_CAP, chunkBytes })
        const views = await appendInSteps(split, bytes, cutPoints(cuts, bytes.length), () => tail.read())
        const last = views.at(-1) as TranscriptView
        expect(last.reset).toBeUndefined()
        expect(comparable(last, split)).toEqual(comparable(expected, full))
      }),
      BOUNDED,
    )
  }, 60_000)

  it('prompts whose uuids collide in the first 8 and last 5 hex digits are all kept', async () => {
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(COLLIDING, { minLength: 1 }), async (uuids) => {
        const lines = uuids.map((uuid, i) => JSON.stringify(envelope('user', uuid, i === 0 ? null : (uuids[i - 1] as string), { message: { role: 'user', content: `prompt ${i}` } })))
        const path = join(dir, 'ids.jsonl')
        writeFileSync(path, `${lines.join('\n')}\n`)
        const chat = await readChat({ runId: 'fuzz', runtimeDir: '', transcriptPath: path })
        expect(chat.messages.map((m) => m.text)).toEqual(uuids.map((_, i) => `prompt ${i}`))
      }),
      BOUNDED,
    )
  }, 60_000)

  it('a FIFO at the transcript path is refused at once, never a hang (file layer; the check is helper D1\'s regular-file open)', async (ctx) => {
    const path = join(dir, 'fifo.jsonl')
    if (!makeFifo(path)) return ctx.skip('mkfifo is not available on this machine')
    await expect(readChat({ runId: 'fuzz', runtimeDir: '', transcriptPath: path })).rejects.toSatisfy(NotARegularFileError.isInstance)
    await expect(createTranscriptTail(path).read()).rejects.toSatisfy(NotARegularFileError.isInstance)
    await expect(detectAgent(path)).rejects.toSatisfy(NotARegularFileError.isInstance)
  }, 10_000)
})

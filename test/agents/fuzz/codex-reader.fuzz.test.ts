import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/codex/read-chat.js'
import { createRolloutTail } from '../../../src/agents/codex/rollout-tail.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { zstdStore } from '../codex/zstd-frames.js'
import { NotARegularFileError } from '../../../src/agents/runstate/regular-file.js'
import { detectAgent } from '../../../src/cli/inspect.js'
import { appendInSteps, BOUNDED, cutPoints, deepJson, FUZZ_LINE_CAP, hostileLine, makeFifo, validUsage } from './fuzz-files.js'

/**
 * Fuzz suite of the Codex rollout reader (issue 15): generated rollouts of real envelope shapes
 * with hostile values (turn ids that never started or repeat, rollbacks of -1 or 10^9 turns, token
 * counts of -1, 1e309, 2.5 and 2^60, function-call arguments nested thousands of levels, lines
 * over the line cap, junk and half-written lines), read whole, as any series of appends, and as
 * the same bytes zstd-compressed. Bounded by time (fuzz-files.ts), so it runs in the normal suite.
 */

const turnArb = fc.constantFrom('t1', 't2', 't3', 'ghost')
const countArb = fc.oneof(fc.nat({ max: 5000 }), fc.constantFrom(-1, 2.5, 2 ** 60, 'INF', null))
const textArb = fc.string({ maxLength: 30 })
const callArb = fc.constantFrom('call_1', 'call_2')

type Payload = Record<string, unknown>
const envelope = (type: string, payload: Payload): Payload => ({ timestamp: '2026-01-05T10:00:00.000Z', type, payload })
const event = (payload: Payload): Payload => envelope('event_msg', payload)

const recordArb: fc.Arbitrary<Payload> = fc.oneof(
  fc.constant(envelope('session_meta', { id: '01a229ba-571a-7273-b111-e6cbc1a7411b', cwd: '/repo', timestamp: '2026-01-05T10:00:00.000Z' })),
  textArb.map((message) => event({ type: 'user_message', message, images: [] })),
  textArb.map((message) => event({ type: 'agent_message', message })),
  turnArb.map((turn_id) => event({ type: 'task_started', turn_id })),
  fc.tuple(turnArb, fc.boolean()).map(([turn_id, failed]) => event({ type: 'task_complete', turn_id, ...(failed ? { error: { message: 'boom' } } : {}) })),
  fc.option(turnArb, { nil: undefined }).map((turn_id) => event({ type: 'turn_aborted', ...(turn_id ? { turn_id } : {}), reason: 'interrupted' })),
  textArb.map((message) => event({ type: 'error', message })),
  fc.constantFrom(-1, 0, 1, 3, 1e9).map((num_turns) => event({ type: 'thread_rolled_back', num_turns })),
  fc.tuple(countArb, countArb, countArb).map(([input, cached, output]) => event({ type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } } })),
  fc.tuple(callArb, fc.constantFrom('{"cmd":"ls"}', 'DEEP', 'not json', '[]')).map(([call_id, args]) => envelope('response_item', { type: 'function_call', name: 'shell', arguments: args, call_id })),
  fc.tuple(callArb, textArb).map(([call_id, output]) => envelope('response_item', { type: 'function_call_output', call_id, output })),
  fc.constant(envelope('compacted', { message: 'summary' })),
)

/** A line of the file: a record (its placeholders made hostile as text) or a hostile line. */
const lineArb: fc.Arbitrary<string> = fc.oneof(
  // The arguments field is a JSON string: the deep value goes in escaped, as Codex writes it.
  { weight: 6, arbitrary: recordArb.map((record) => JSON.stringify(record).replace('"arguments":"DEEP"', `"arguments":${JSON.stringify(deepJson(5000, true))}`).replaceAll('"INF"', '1e309')) },
  { weight: 1, arbitrary: hostileLine },
)

const fileArb = fc.tuple(fc.array(lineArb, { maxLength: 24 }), fc.boolean()).map(([lines, trailing]) => Buffer.from(lines.join('\n') + (trailing && lines.length > 0 ? '\n' : '')))

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-fuzz-codex-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const neutral = (chat: AgentChat, path: string): unknown => JSON.parse(JSON.stringify(chat).replaceAll(path, '<file>')) as unknown

describe('fuzz: Codex rollout reader', () => {
  it('never throws, and what it returns is sane: serializable, valid token counts, increasing seqs, known states', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (bytes) => {
        const path = join(dir, 'full.jsonl')
        writeFileSync(path, bytes)
        const chat = await readChat({ runId: '', runtimeDir: '', transcriptPath: path }, { maxLineBytes: FUZZ_LINE_CAP })
        expect(() => JSON.stringify(chat)).not.toThrow()
        expect(validUsage(chat.usage as unknown as Record<string, number>)).toBe(true)
        expect(['idle', 'working', 'needs_input', 'question', 'ended']).toContain(chat.state)
        const seqs = chat.messages.map((m) => m.seq)
        expect(seqs.every((seq, i) => Number.isInteger(seq) && seq > 0 && (i === 0 || seq > (seqs[i - 1] as number)))).toBe(true)
      }),
      { ...BOUNDED, numRuns: 1000 },
    )
  }, 60_000)

  it('any split of the file into appends ends in exactly the full read', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, fc.array(fc.nat(), { maxLength: 6 }), async (bytes, cuts) => {
        const full = join(dir, 'whole.jsonl')
        writeFileSync(full, bytes)
        const expected = await createRolloutTail(full, { maxLineBytes: FUZZ_LINE_CAP }).read()
        const split = join(dir, 'split.jsonl')
        const tail = createRolloutTail(split, { maxLineBytes: FUZZ_LINE_CAP })
        const chats = await appendInSteps(split, bytes, cutPoints(cuts, bytes.length), () => tail.read())
        expect(neutral(chats.at(-1) as AgentChat, split)).toEqual(neutral(expected, full))
      }),
      { ...BOUNDED, numRuns: 1000 },
    )
  }, 60_000)

  it('the same bytes as a .jsonl.zst read as the plain file (same caps on the decompressed stream)', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (bytes) => {
        // A finished rollout: the compressed reader takes an unterminated last line as complete.
        const finished = bytes.length === 0 || bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from('\n')])
        const plain = join(dir, 'same.jsonl')
        const zst = join(dir, 'same.jsonl.zst')
        writeFileSync(plain, finished)
        writeFileSync(zst, zstdStore(finished))
        const fromPlain = await createRolloutTail(plain, { maxLineBytes: FUZZ_LINE_CAP }).read()
        const fromZst = await createRolloutTail(zst, { maxLineBytes: FUZZ_LINE_CAP }).read()
        const unit = (chat: AgentChat, path: string): unknown => JSON.parse(JSON.stringify(neutral(chat, path)).replaceAll('decompressed byte', 'byte')) as unknown
        expect(unit(fromZst, zst)).toEqual(unit(fromPlain, plain))
      }),
      { ...BOUNDED, numRuns: 1000 },
    )
  }, 60_000)

  it('past the window threshold too, a .jsonl.zst reads as the same plain bytes (the same windows)', async () => {
    const windows = { maxLineBytes: FUZZ_LINE_CAP, windowThresholdBytes: 512, tailWindowBytes: 256 }
    await fc.assert(
      fc.asyncProperty(fileArb, async (bytes) => {
        const finished = bytes.length === 0 || bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from('\n')])
        const plain = join(dir, 'windowed.jsonl')
        const zst = join(dir, 'windowed.jsonl.zst')
        writeFileSync(plain, finished)
        writeFileSync(zst, zstdStore(finished))
        const fromPlain = await createRolloutTail(plain, windows).read()
        const fromZst = await createRolloutTail(zst, windows).read()
        const unit = (chat: AgentChat, path: string): unknown =>
          JSON.parse(JSON.stringify(neutral(chat, path)).replaceAll('decompressed byte', 'byte').replaceAll(' (decompressed)', '')) as unknown
        expect(unit(fromZst, zst)).toEqual(unit(fromPlain, plain))
      }),
      { ...BOUNDED, numRuns: 1000 },
    )
  }, 60_000)

  it('a FIFO at the rollout path (plain or .zst) is refused at once, never a hang (file layer; the check is helper D1\'s regular-file open)', async (ctx) => {
    for (const name of ['fifo.jsonl', 'fifo.jsonl.zst']) {
      const path = join(dir, name)
      if (!makeFifo(path)) return ctx.skip('mkfifo is not available on this machine')
      await expect(readChat({ runId: '', runtimeDir: '', transcriptPath: path })).rejects.toSatisfy(NotARegularFileError.isInstance)
      await expect(detectAgent(path)).rejects.toSatisfy(NotARegularFileError.isInstance)
    }
  }, 10_000)
})

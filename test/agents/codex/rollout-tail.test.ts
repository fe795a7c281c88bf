import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRolloutTail, readChat } from '../../../src/agents/codex/index.js'
import { TranscriptGoneError } from '../../../src/agents/runstate/errors.js'
import { agentItem, outline, sessionMeta, taskComplete, taskStarted, userItem } from './rollout-builders.js'

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/codex')
const fixture = (name: string): string => readFileSync(join(fixtures, `${name}.rollout.jsonl`), 'utf8')

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chatrail-codex-tail-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const full = (path: string) => readChat({ runId: '', runtimeDir: '', transcriptPath: path })

describe('createRolloutTail', () => {
  it('reads only appended bytes, buffers a partial last line, and ends equal to a full read', async () => {
    const path = join(dir, 'rollout.jsonl')
    const text = fixture('tool-run')
    const cut = text.indexOf('"type":"function_call"') + 10 // inside the function_call line
    writeFileSync(path, text.slice(0, cut))
    const tail = createRolloutTail(path)
    const first = await tail.read()
    expect(first.cursor.offset).toBe(Buffer.byteLength(text.slice(0, text.lastIndexOf('\n', cut) + 1)))
    expect(first.messages.some((message) => message.tool)).toBe(false)
    expect(first.state).toBe('working')
    appendFileSync(path, text.slice(cut))
    const second = await tail.read()
    expect(second).toEqual(await full(path))
    expect(second.cursor).toEqual({ offset: Buffer.byteLength(text), lines: text.split('\n').length - 1 })
  })

  it('keeps seqs stable as the file grows, turn by turn', async () => {
    const path = join(dir, 'rollout.jsonl')
    const tail = createRolloutTail(path)
    writeFileSync(path, [sessionMeta(), taskStarted('t1'), userItem('t1', 'one'), agentItem('t1', 'a', 'first'), taskComplete('t1'), ''].join('\n'))
    const before = await tail.read()
    appendFileSync(path, [taskStarted('t2'), userItem('t2', 'two'), ''].join('\n'))
    const after = await tail.read()
    expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages)
    expect(outline(after)).toEqual(['1 text:user:one', '2 text:assistant:first', '3 text:user:two'])
    expect([before.state, after.state]).toEqual(['needs_input', 'working'])
  })

  it('starts over when the file is replaced or truncated', async () => {
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, fixture('tool-run'))
    const tail = createRolloutTail(path)
    await tail.read()
    const replacement = join(dir, 'next.jsonl')
    writeFileSync(replacement, fixture('plain-turn'))
    renameSync(replacement, path)
    expect(await tail.read()).toEqual(await full(path))
    truncateSync(path, 0)
    const emptied = await tail.read()
    expect([emptied.state, emptied.messages.length]).toEqual(['idle', 0])
  })

  it('throws TranscriptGoneError once the file is gone; an over-long line is skipped with a placeholder and a warning', async () => {
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, fixture('plain-turn'))
    const tail = createRolloutTail(path)
    await tail.read()
    unlinkSync(path)
    await expect(tail.read()).rejects.toSatisfy(TranscriptGoneError.isInstance)
    writeFileSync(path, `${sessionMeta()}\n${JSON.stringify({ type: 'event_msg', payload: { type: 'user_message', message: 'x'.repeat(5000) } })}\n`)
    const chat = await createRolloutTail(path, { maxLineBytes: 1024 }).read()
    expect(chat.messages.map((m) => m.kind)).toEqual(['lifecycle'])
    expect(chat.messages[0]?.text).toMatch(/^Line 2 \(\d+ bytes\) is longer than the 1024 bytes line cap/)
    expect(chat.warnings).toEqual([expect.stringContaining('line 2 (at byte')])
  })

  it('follows a rollout compressed in place (plain file gone, .zst sibling present)', async () => {
    const path = join(dir, 'rollout.jsonl')
    writeFileSync(path, fixture('resume'))
    const tail = createRolloutTail(path)
    const plain = await tail.read()
    copyFileSync(join(fixtures, 'resume.rollout.jsonl.zst'), `${path}.zst`)
    unlinkSync(path)
    expect(await tail.read()).toEqual(plain)
  })

  it('keeps what decoded from a corrupt .zst and says so, without throwing', async () => {
    const zst = readFileSync(join(fixtures, 'resume.rollout.jsonl.zst'))
    const path = join(dir, 'cut.jsonl.zst')
    writeFileSync(path, zst.subarray(0, Math.floor(zst.length / 2)))
    const chat = await readChat({ runId: '', runtimeDir: '', transcriptPath: path })
    expect(chat.warnings[0]).toMatch(/zstd stream could not be fully decoded/)
    expect(chat.agent).toBe('codex')
  })
})

describe('createRolloutTail: very large files are read through a head window and the tail', () => {
  const turn = (id: string, prompt: string, answer: string): string[] => [taskStarted(id), userItem(id, prompt), agentItem(id, `m-${id}`, answer), taskComplete(id)]

  it('takes the id from the head and the messages from the tail window, then keeps tailing', async () => {
    const path = join(dir, 'big.jsonl')
    const lines = [sessionMeta('01a22000-0000-7000-8000-0000000000aa')]
    for (let index = 0; index < 400; index += 1) lines.push(...turn(`t${index}`, `prompt ${index} ${'.'.repeat(200)}`, `answer ${index}`))
    writeFileSync(path, `${lines.join('\n')}\n`)
    const tail = createRolloutTail(path, { windowThresholdBytes: 64 * 1024, tailWindowBytes: 8 * 1024 })
    const chat = await tail.read()
    expect(chat.sessionId).toBe('01a22000-0000-7000-8000-0000000000aa')
    expect(chat.warnings[0]).toMatch(/read through windows/)
    expect(chat.messages.length).toBeLessThan(100)
    expect(chat.messages.at(-1)?.text).toBe('answer 399')
    expect([chat.state, chat.status]).toEqual(['needs_input', 'completed'])
    appendFileSync(path, `${taskStarted('t400')}\n${userItem('t400', 'one more')}\n`)
    const next = await tail.read()
    expect(next.messages.at(-1)?.text).toBe('one more')
    expect(next.state).toBe('working')
  })

  it('reads a 150 MB (sparse) rollout with default settings in bounded time and memory', async () => {
    const path = join(dir, 'huge.jsonl')
    writeFileSync(path, `${sessionMeta('01a22000-0000-7000-8000-0000000000bb')}\n`)
    truncateSync(path, 150 * 1024 * 1024)
    appendFileSync(path, `\n${turn('last', 'the last prompt', 'the last answer').join('\n')}\n`)
    const heapBefore = process.memoryUsage().heapUsed
    const started = performance.now()
    const chat = await readChat({ runId: '', runtimeDir: '', transcriptPath: path })
    expect(performance.now() - started).toBeLessThan(5000)
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024)
    expect(chat.sessionId).toBe('01a22000-0000-7000-8000-0000000000bb')
    expect(outline(chat)).toEqual(['1 text:user:the last prompt', '2 text:assistant:the last answer'])
    expect(chat.state).toBe('needs_input')
  })
})

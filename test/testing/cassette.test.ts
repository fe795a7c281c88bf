import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { AdapterRequest } from '../../src/contract/adapter.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'
import { parseCassette, readCassette, writeCassette } from '../../src/testing/cassette.js'
import { recordingAdapter } from '../../src/testing/recording-adapter.js'
import { replayAdapter } from '../../src/testing/replay-adapter.js'
import { scriptedAdapter } from '../../src/testing/scripted-adapter.js'

const message = (id: string, role: Message['role'], content: string): Message => ({ id, role, content, status: 'complete', createdAt: new Date(0) })
const request = (...messages: Message[]): AdapterRequest => ({ messages })

async function drain(source: StreamSource): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of source.stream()) chunks.push(chunk)
  return chunks
}

describe('recordingAdapter', () => {
  it('passes the request object and chunks through unchanged and records them', async () => {
    const recorder = recordingAdapter(scriptedAdapter(['Hello there', [{ type: 'text', content: 'x' }, { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, { type: 'done' }]]))
    const first = request(message('m1', 'user', 'hi'))
    expect(await drain(recorder.createSource(first))).toEqual([{ type: 'text', content: 'Hello there' }, { type: 'done' }])
    await drain(recorder.createSource(request(message('m1', 'user', 'hi'), message('m2', 'assistant', 'Hello there'), message('m3', 'user', 'more'))))
    expect(recorder.calls[0]?.request).toBe(first)
    expect(recorder.calls.map((call) => [call.streamed, call.finished, call.aborted, call.chunks.length])).toEqual([
      [true, true, false, 2],
      [true, true, false, 3],
    ])
    expect(recorder.cassette().interactions.map((interaction) => interaction.request.messages.map((m) => m.content))).toEqual([['hi'], ['hi', 'Hello there', 'more']])
  })

  it('forwards abort and marks the interaction aborted with what arrived before it', async () => {
    const recorder = recordingAdapter(scriptedAdapter([[{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }, { type: 'done' }]]))
    const source = recorder.createSource(request(message('m1', 'user', 'hi')))
    const seen: StreamChunk[] = []
    for await (const chunk of source.stream()) {
      seen.push(chunk)
      source.abort()
    }
    expect(seen).toEqual([{ type: 'text', content: 'a' }])
    expect(recorder.cassette().interactions).toEqual([{ request: { messages: [{ role: 'user', content: 'hi' }] }, chunks: [{ type: 'text', content: 'a' }], aborted: true }])
  })
})

describe('replayAdapter', () => {
  it('replays recorded chunks for the same transcript, whatever the message ids and dates', async () => {
    const recorder = recordingAdapter(scriptedAdapter(['one', 'two']))
    await drain(recorder.createSource(request(message('a', 'user', 'first'))))
    await drain(recorder.createSource(request(message('a', 'user', 'first'), message('b', 'assistant', 'one'), message('c', 'user', 'second'))))
    const replay = replayAdapter(JSON.parse(JSON.stringify(recorder.cassette())))
    expect(await drain(replay.createSource(request(message('x', 'user', 'first'))))).toEqual([{ type: 'text', content: 'one' }, { type: 'done' }])
    expect(await drain(replay.createSource(request(message('x', 'user', 'first'), message('y', 'assistant', 'one'), message('z', 'user', 'second'))))).toEqual([
      { type: 'text', content: 'two' },
      { type: 'done' },
    ])
    expect(replay.unused()).toEqual([])
    expect(replay.misses).toBe(0)
  })

  it('answers a request the cassette does not hold with one error chunk that says what differs', async () => {
    const recorder = recordingAdapter(scriptedAdapter(['one']))
    await drain(recorder.createSource(request(message('a', 'user', 'refund please'))))
    const replay = replayAdapter(recorder.cassette())
    const chunks = await drain(replay.createSource(request(message('a', 'user', 'cancel please'))))
    expect(chunks).toHaveLength(1)
    expect(chunks[0]?.type).toBe('error')
    expect(chunks[0]?.content).toBe(
      'replayAdapter: request #1 (last user message "cancel please") matches no recording: the next unused recording (#1) was made for "refund please" after 1 messages, this request has 1. The conversation changed since the cassette was recorded; record it again (chatrail test --record).',
    )
    expect(replay.misses).toBe(1)
    expect(replay.unused()).toHaveLength(1)
    const exhausted = await drain(replayAdapter({ version: 1, interactions: [] }).createSource(request(message('a', 'user', 'hi'))))
    expect(exhausted[0]?.content).toContain('the cassette has no unused recordings left (it holds 0)')
  })

  it('stops replaying when aborted', async () => {
    const replay = replayAdapter({ version: 1, interactions: [{ request: { messages: [{ role: 'user', content: 'hi' }] }, chunks: [{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }, { type: 'done' }] }] })
    const source = replay.createSource(request(message('m', 'user', 'hi')))
    const seen: StreamChunk[] = []
    for await (const chunk of source.stream()) {
      seen.push(chunk)
      source.abort()
    }
    expect(seen).toEqual([{ type: 'text', content: 'a' }])
  })
})

describe('cassette files', () => {
  /** A temporary directory the calling test removes when it finishes (none is left in /tmp). */
  function cassetteDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'chatrail-cassette-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    return dir
  }

  it('round-trips through writeCassette/readCassette', () => {
    const path = join(cassetteDir(), 'c.json')
    const cassette = { version: 1 as const, interactions: [{ request: { messages: [{ role: 'user', content: 'hi' }], systemPrompt: 'Be brief' }, chunks: [{ type: 'text' as const, content: 'yo' }] }] }
    writeCassette(path, cassette)
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true)
    expect(readCassette(path)).toEqual(cassette)
  })

  it('names the problem in a broken cassette and a missing one', () => {
    expect(() => parseCassette({ version: 2, interactions: [] }, 'x.json')).toThrow(/^x\.json is not a chatrail cassette at version: /)
    const dir = cassetteDir()
    writeFileSync(join(dir, 'bad.json'), '{ nope')
    expect(() => readCassette(join(dir, 'bad.json'))).toThrow(/is not JSON/)
    expect(() => readCassette(join(dir, 'missing.json'))).toThrow(expect.objectContaining({ code: 'CASSETTE_MISSING' }))
  })
})

import { describe, expect, it } from 'vitest'
import type { AdapterRequest, StreamChunk } from '../../src/index.js'
import { errorChunk, normalizeScript, scriptedAdapter, ScriptError } from '../../src/testing/index.js'

const request = (content: string): AdapterRequest => ({
  messages: [{ id: `u-${content}`, role: 'user', content, status: 'complete', createdAt: new Date(0) }],
})

async function collect(iterator: AsyncIterator<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for (let step = await iterator.next(); !step.done; step = await iterator.next()) chunks.push(step.value)
  return chunks
}

describe('scriptedAdapter', () => {
  it('plays a string step as one text chunk and done', async () => {
    const adapter = scriptedAdapter(['Hello'])
    expect(await collect(adapter.createSource(request('hi')).stream())).toEqual([{ type: 'text', content: 'Hello' }, { type: 'done' }])
  })

  it('plays steps in order and records every request and the chunks delivered', async () => {
    const adapter = scriptedAdapter(['one', [{ type: 'text', content: 'two' }, { type: 'done' }]])
    const first = request('a')
    await collect(adapter.createSource(first).stream())
    await collect(adapter.createSource(request('b')).stream())
    expect(adapter.requests[0]).toBe(first)
    expect(adapter.requests.map((r) => r.messages[0]?.content)).toEqual(['a', 'b'])
    expect(adapter.calls.map((call) => call.chunks[0]?.content)).toEqual(['one', 'two'])
    expect(adapter.calls.map((call) => call.step)).toEqual([0, 1])
  })

  it('evaluates a function step lazily, with the request and the call number', async () => {
    const seen: Array<[string | undefined, number]> = []
    const adapter = scriptedAdapter([(req, call) => {
      seen.push([req.messages[0]?.content, call])
      return `echo ${req.messages[0]?.content}`
    }])
    const source = adapter.createSource(request('ping'))
    expect(seen).toEqual([])
    expect(adapter.calls[0]?.streamed).toBe(false)
    expect((await collect(source.stream()))[0]?.content).toBe('echo ping')
    expect(seen).toEqual([['ping', 0]])
  })

  it('normalizes chunk lists: appends done, stops at the first terminal, gives errors an Error', () => {
    expect(normalizeScript([{ type: 'text', content: 'x' }])).toEqual([{ type: 'text', content: 'x' }, { type: 'done' }])
    expect(normalizeScript([{ type: 'done' }, { type: 'text', content: 'late' }])).toEqual([{ type: 'done' }])
    const [error, ...rest] = normalizeScript([{ type: 'error', content: 'boom' }, { type: 'done' }])
    expect(rest).toEqual([])
    expect(error?.metadata?.error).toBeInstanceOf(Error)
    expect((error?.metadata?.error as Error).message).toBe('boom')
    expect(errorChunk('bad').metadata?.error).toBeInstanceOf(Error)
  })

  it('plays an async-iterable step verbatim (no done appended)', async () => {
    const adapter = scriptedAdapter([() => (async function* () {
      yield { type: 'text', content: 'raw' } as StreamChunk
    })()])
    expect(await collect(adapter.createSource(request('x')).stream())).toEqual([{ type: 'text', content: 'raw' }])
  })

  it('ends quietly on abort, even while an async-iterable step is blocked', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const adapter = scriptedAdapter([() => (async function* () {
      yield { type: 'text', content: 'first' } as StreamChunk
      await gate
      yield { type: 'text', content: 'never' } as StreamChunk
    })()])
    const source = adapter.createSource(request('x'))
    const iterator = source.stream()
    expect((await iterator.next()).value).toEqual({ type: 'text', content: 'first' })
    const pending = iterator.next()
    source.abort()
    expect(await pending).toEqual({ done: true, value: undefined })
    release()
    expect(adapter.calls[0]?.aborted).toBe(true)
    expect(adapter.calls[0]?.chunks).toHaveLength(1)
  })

  it('stops a chunk-list step after abort mid-stream', async () => {
    const adapter = scriptedAdapter([[{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }, { type: 'done' }]])
    const source = adapter.createSource(request('x'))
    const iterator = source.stream()
    await iterator.next()
    source.abort()
    expect((await iterator.next()).done).toBe(true)
  })

  it('yields an error chunk when one source is streamed twice (A2)', async () => {
    const source = scriptedAdapter(['x']).createSource(request('x'))
    await collect(source.stream())
    const again = await collect(source.stream())
    expect(again.map((chunk) => chunk.type)).toEqual(['error'])
  })

  it('cycles the script in loose mode', async () => {
    const adapter = scriptedAdapter(['a', 'b'])
    const texts: Array<string | undefined> = []
    for (let i = 0; i < 3; i += 1) texts.push((await collect(adapter.createSource(request('x')).stream()))[0]?.content)
    expect(texts).toEqual(['a', 'b', 'a'])
  })

  it('throws SCRIPT_EXCEEDED in strict mode and remembers it for assertDone', () => {
    const adapter = scriptedAdapter(['only'], { strict: true })
    adapter.createSource(request('1'))
    let thrown: unknown
    try {
      adapter.createSource(request('2'))
    } catch (error) {
      thrown = error
    }
    expect(ScriptError.isInstance(thrown)).toBe(true)
    expect((thrown as ScriptError).code).toBe('SCRIPT_EXCEEDED')
    expect(() => adapter.assertDone()).toThrow(/beyond the 1 scripted step/)
  })

  it('assertDone reports leftover steps and passes when the script is used up', () => {
    const adapter = scriptedAdapter(['a', 'b'], { strict: true })
    adapter.createSource(request('1'))
    expect(adapter.remaining).toBe(1)
    expect(() => adapter.assertDone()).toThrow(/never requested: #2 \("b"\)/)
    adapter.createSource(request('2'))
    expect(() => adapter.assertDone()).not.toThrow()
  })
})

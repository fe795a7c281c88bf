import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PartSink } from '../../src/server/part-stream.js'
import type { WirePart } from '../../src/server/tool-parts.js'
import { mergeDeltas, recordTurnParts } from '../../src/server/turn-recorder.js'
import { memoryStore, StoreUnavailableError, type ConversationStore, type TurnPartsAppend, type TurnPartsAppendResult } from '../../src/store/index.js'

// The recorder behind resumable streams (turn-recorder.ts): batching, the deferred first batch,
// ordering under store failures, the overflow rule. A fake clock drives its flush timer.

const FLUSH = 50

/** A sink that keeps what the client got. */
function clientSink(): PartSink & { parts: WirePart[]; closed: boolean } {
  const sink = {
    parts: [] as WirePart[],
    closed: false,
    write: (parts: readonly WirePart[]) => void sink.parts.push(...parts),
    close: () => void (sink.closed = true),
    disconnected: false,
  }
  return sink
}

describe('recordTurnParts', () => {
  let store: ConversationStore
  let calls: TurnPartsAppend[]
  let results: Array<TurnPartsAppendResult | Error>
  let fail: (input: TurnPartsAppend) => Error | undefined

  beforeEach(async () => {
    vi.useFakeTimers()
    const real = memoryStore()
    calls = []
    results = []
    fail = () => undefined
    store = {
      ...real,
      appendTurnParts: async (conversationId, input) => {
        calls.push(input)
        const refused = fail(input)
        if (refused) {
          results.push(refused)
          throw refused
        }
        const result = await (real.appendTurnParts as NonNullable<ConversationStore['appendTurnParts']>)(conversationId, input)
        results.push(result)
        return result
      },
    }
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const start = async (): Promise<{ sink: PartSink; client: ReturnType<typeof clientSink> }> => {
    const claimed = await store.claim('c1', 'turn-1', { leaseMs: 60_000 })
    if (claimed.status !== 'claimed') throw new Error('claim must succeed')
    const client = clientSink()
    const sink = recordTurnParts({ store, conversationId: 'c1', lease: claimed.lease, owner: 'alice', header: () => '{"h":1}', flushMs: FLUSH, sink: client, onError: () => undefined })
    return { sink, client }
  }
  const stored = async (): Promise<string[]> => [...((await store.readTurnParts?.('c1'))?.turn?.parts ?? [])]
  const delta = (text: string): WirePart => ({ type: 'text-delta', id: 'm:0', delta: text })

  it('a turn that closes before its first batch is due writes nothing; the client gets every part', async () => {
    const { sink, client } = await start()
    sink.write([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }, delta('Hi')])
    sink.write([{ type: 'text-end', id: 'm:0' }, { type: 'finish', finishReason: 'stop' }])
    sink.close()
    await vi.advanceTimersByTimeAsync(FLUSH * 4)
    expect(calls).toEqual([])
    expect(client.parts).toHaveLength(5)
    expect(client.closed).toBe(true)
  })

  it('batches flushMs after their first part, deltas merged, the header and owner with the first, finished with the last', async () => {
    const { sink } = await start()
    sink.write([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }, delta('Re'), delta('su')])
    await vi.advanceTimersByTimeAsync(FLUSH - 1)
    expect(calls).toHaveLength(0)
    sink.write([delta('med')])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ seq: 0, owner: 'alice', header: '{"h":1}' })
    expect(calls[0]?.parts.map((part) => JSON.parse(part))).toEqual([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }, delta('Resumed')])
    sink.write([delta(' and')])
    sink.write([delta(' done'), { type: 'text-end', id: 'm:0' }, { type: 'finish', finishReason: 'stop' }])
    sink.close()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(2)
    expect(calls[1]).toMatchObject({ seq: 3, finished: true })
    expect(calls[1]?.owner).toBeUndefined()
    expect(calls[1]?.header).toBeUndefined()
    expect((await stored()).map((part) => JSON.parse(part))).toEqual([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }, delta('Resumed'), delta(' and done'), { type: 'text-end', id: 'm:0' }, { type: 'finish', finishReason: 'stop' }])
    expect((await store.readTurnParts?.('c1'))?.turn?.finished).toBe(true)
  })

  it('a batch the store refused goes again with the next one: nothing lost, nothing twice, in order', async () => {
    const { sink } = await start()
    sink.write([{ type: 'start', messageId: 'm' }])
    await vi.advanceTimersByTimeAsync(FLUSH)
    fail = () => new StoreUnavailableError('appendTurnParts', new Error('down'))
    sink.write([{ type: 'text-start', id: 'm:0' }, delta('a')])
    await vi.advanceTimersByTimeAsync(FLUSH)
    expect(results.at(-1)).toBeInstanceOf(StoreUnavailableError)
    fail = () => undefined
    sink.write([delta('b')])
    await vi.advanceTimersByTimeAsync(FLUSH)
    sink.write([{ type: 'finish', finishReason: 'stop' }])
    sink.close()
    await vi.advanceTimersByTimeAsync(0)
    expect((await stored()).map((part) => JSON.parse(part))).toEqual([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }, delta('ab'), { type: 'finish', finishReason: 'stop' }])
    expect(calls.map((call) => call.seq)).toEqual([0, 1, 1, 3])
  })

  it('past the store’s cap it stops recording and writes only the finished mark', async () => {
    store = { ...memoryStore({ maxTurnPartsBytes: 120 }) }
    const inner = store.appendTurnParts as NonNullable<ConversationStore['appendTurnParts']>
    calls = []
    store.appendTurnParts = async (conversationId, input) => {
      calls.push(input)
      return inner(conversationId, input)
    }
    const { sink, client } = await start()
    sink.write([{ type: 'start', messageId: 'm' }, { type: 'text-start', id: 'm:0' }])
    await vi.advanceTimersByTimeAsync(FLUSH)
    sink.write([delta('x'.repeat(200))])
    await vi.advanceTimersByTimeAsync(FLUSH)
    sink.write([delta('more'), { type: 'finish', finishReason: 'stop' }])
    await vi.advanceTimersByTimeAsync(FLUSH)
    sink.close()
    await vi.advanceTimersByTimeAsync(0)
    expect(calls.map((call) => [call.seq, call.parts.length, call.finished === true])).toEqual([[0, 2, false], [2, 1, false], [2, 0, true]])
    expect((await store.readTurnParts?.('c1'))?.turn).toMatchObject({ next: 2, overflowed: true, finished: true })
    expect(client.parts).toHaveLength(5)
  })

  it('a first batch refused because the lease ended (fenced) records nothing more', async () => {
    const { sink } = await start()
    sink.write([{ type: 'start', messageId: 'm' }])
    const lease = (await store.readTurnParts?.('c1'))?.lease
    await store.release({ conversationId: 'c1', token: lease?.token ?? 0 }, 'completed')
    await vi.advanceTimersByTimeAsync(FLUSH)
    sink.write([{ type: 'finish', finishReason: 'stop' }])
    sink.close()
    await vi.advanceTimersByTimeAsync(FLUSH)
    expect(results).toEqual([{ status: 'fenced' }])
    expect((await store.readTurnParts?.('c1'))?.turn).toBeUndefined()
  })

  it('a store without turn parts gets the sink back unchanged', () => {
    const { appendTurnParts: _append, readTurnParts: _read, ...older } = memoryStore()
    const client = clientSink()
    expect(recordTurnParts({ store: older, conversationId: 'c1', lease: { turnId: 't', token: 1 }, owner: undefined, header: () => '', flushMs: FLUSH, sink: client, onError: () => undefined })).toBe(client)
  })
})

describe('mergeDeltas', () => {
  const partArb: fc.Arbitrary<WirePart> = fc.oneof(
    fc.record({ type: fc.constant('text-delta' as const), id: fc.constantFrom('a', 'b'), delta: fc.string() }),
    fc.record({ type: fc.constant('reasoning-delta' as const), id: fc.constantFrom('a', 'b'), delta: fc.string() }),
    fc.record({ type: fc.constant('text-start' as const), id: fc.constantFrom('a', 'b') }),
    fc.constant({ type: 'finish' as const, finishReason: 'stop' as const }),
  )
  /** What a reader makes of the parts: per part kind and id, the concatenated text, in order of change. */
  const reading = (parts: readonly WirePart[]): string[] => {
    const out: string[] = []
    for (const part of parts) {
      if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
        const key = `${part.type}:${part.id}`
        const last = out.at(-1)
        if (last?.startsWith(`${key}=`)) out[out.length - 1] = last + part.delta
        else out.push(`${key}=${part.delta}`)
      } else out.push(JSON.stringify(part))
    }
    return out
  }

  it('never changes what a reader reads, and leaves no two mergeable deltas side by side (property)', () => {
    fc.assert(fc.property(fc.array(partArb, { maxLength: 40 }), (parts) => {
      const merged = mergeDeltas(parts)
      expect(reading(merged)).toEqual(reading(parts))
      for (let i = 1; i < merged.length; i++) {
        const [a, b] = [merged[i - 1] as WirePart, merged[i] as WirePart]
        if ((a.type === 'text-delta' || a.type === 'reasoning-delta') && a.type === b.type) expect(a.id === (b as { id: string }).id).toBe(false)
      }
    }))
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StreamChunk } from '../../src/contract/stream.js'
import { createUiPartEncoder, encodeSseEvent, readUiMessageStream, SSE_DONE, uiPartToChunks, type ChatrailPartData, type UiPart } from '../../src/protocol/index.js'

// The wire codec: chunks → parts → SSE bytes → parts → chunks is the identity (on what the wire
// carries), for any chunk sequence and any split of the bytes into network reads.

const bodyOf = (text: string, cuts: readonly number[] = []): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder().encode(text)
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces: Uint8Array[] = []
  let from = 0
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(from, point))
    from = point
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece)
      controller.close()
    },
  })
}

const collect = async (body: ReadableStream<Uint8Array>): Promise<UiPart[]> => {
  const parts: UiPart[] = []
  for await (const part of readUiMessageStream(body)) parts.push(part)
  return parts
}

const snapshot: ChatrailPartData = { state: 'asking', events: ['date', 'cancel'], actions: [] }

const chunkArb: fc.Arbitrary<StreamChunk> = fc.oneof(
  fc.record({ type: fc.constantFrom('text' as const, 'reasoning' as const), content: fc.string({ unit: 'grapheme' }) }),
  fc.record({ type: fc.constant('error' as const), content: fc.string({ minLength: 1 }) }),
  fc.constant({ type: 'usage' as const, usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } }),
)

/** What the wire carries of a chunk sequence: non-empty deltas up to the first error, then the end. */
function expectedChunks(chunks: readonly StreamChunk[]): StreamChunk[] {
  const result: StreamChunk[] = []
  for (const chunk of chunks) {
    if (chunk.type === 'error') return [...result, { type: 'error', content: chunk.content ?? '' }, { type: 'done' }]
    if ((chunk.type === 'text' || chunk.type === 'reasoning') && chunk.content) result.push({ type: chunk.type, content: chunk.content })
  }
  return [...result, { type: 'done' }]
}

function encodeAll(chunks: readonly StreamChunk[]): string {
  const encoder = createUiPartEncoder({ messageId: 'a1' })
  const parts: UiPart[] = [...encoder.start()]
  let failed = false
  for (const chunk of chunks) {
    parts.push(...encoder.encode(chunk))
    if (chunk.type === 'error') {
      failed = true
      break
    }
  }
  parts.push(...encoder.encode({ type: 'done' }), ...encoder.finish(snapshot, failed ? 'error' : 'stop'))
  return parts.map(encodeSseEvent).join('') + SSE_DONE
}

describe('UI message stream codec', () => {
  it('round-trips any chunk sequence through SSE, however the bytes are split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(chunkArb, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), async (chunks, cuts) => {
        const parts = await collect(bodyOf(encodeAll(chunks), cuts))
        expect(parts.flatMap(uiPartToChunks)).toEqual(expectedChunks(chunks))
        expect(parts.filter((part) => part.type === 'data-chatrail')).toEqual([{ type: 'data-chatrail', data: snapshot }])
      }),
      { numRuns: 200 },
    )
  })

  it('frames text runs: one text part per run, closed before reasoning, errors and the end', () => {
    const encoder = createUiPartEncoder({ messageId: 'm' })
    const parts = [
      ...encoder.encode({ type: 'text', content: 'a' }),
      ...encoder.encode({ type: 'text', content: 'b' }),
      ...encoder.encode({ type: 'reasoning', content: 'r' }),
      ...encoder.encode({ type: 'text', content: 'c' }),
      ...encoder.finish(),
    ]
    expect(parts.map((part) => part.type)).toEqual(['text-start', 'text-delta', 'text-delta', 'text-end', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'text-end', 'finish'])
    expect(new Set(parts.flatMap((part) => ('id' in part ? [part.id] : []))).size).toBe(3)
  })

  it('reads a malformed event or a body cut before "finish" as an error part, never as an answer', async () => {
    const malformed = await collect(bodyOf(`${encodeSseEvent({ type: 'start' })}data: {not json\n\n`))
    expect(malformed.at(-1)).toEqual({ type: 'error', errorText: 'Malformed UI message stream: an event is not JSON.' })
    const badPart = await collect(bodyOf('data: {"type":"text-delta","id":"t"}\n\n'))
    expect(badPart).toEqual([{ type: 'error', errorText: 'Malformed UI message stream: a "text-delta" part is malformed at delta.' }])
    const cut = await collect(bodyOf(encodeAll([{ type: 'text', content: 'hello' }]).split('"finish"')[0] ?? ''))
    expect(cut.at(-1)).toEqual({ type: 'error', errorText: 'The UI message stream ended before "finish".' })
  })

  it('skips part types it does not read (tools, sources) and keeps reading', async () => {
    const text = [`data: {"type":"tool-input-start","toolCallId":"x","toolName":"t"}\n\n`, encodeSseEvent({ type: 'text-delta', id: 't', delta: 'hi' }), encodeSseEvent({ type: 'finish' }), SSE_DONE].join('')
    expect((await collect(bodyOf(text))).flatMap(uiPartToChunks)).toEqual([{ type: 'text', content: 'hi' }, { type: 'done' }])
  })
})

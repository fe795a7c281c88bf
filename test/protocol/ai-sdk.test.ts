import { createUIMessageStream, createUIMessageStreamResponse, parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, UI_MESSAGE_STREAM_HEADERS as AI_SDK_HEADERS, type UIMessage, type UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { createUiPartEncoder, encodeSseEvent, readUiMessageStream, SSE_DONE, UI_MESSAGE_STREAM_HEADERS, uiPartToChunks, type ChatrailPartData, type UiPart } from '../../src/protocol/index.js'

// The codec against the real AI SDK (`ai` 6): its own parser (the one useChat's default transport
// uses: parseJsonEventStream + uiMessageChunkSchema, then readUIMessageStream) reads what chatrail
// writes, and chatrail's reader reads what the AI SDK writes.

const snapshot: ChatrailPartData = {
  state: 'asking',
  events: ['date'],
  actions: ['cancel'],
  trace: { kind: 'deterministic', outcome: 'ok', routeId: 'start', event: 'start', fromState: 'idle', toState: 'asking', sessionId: 'c1', turnId: 'c1:1', messageId: 'u1', replayed: false, at: '2030-01-01T00:00:00.000Z', durationMs: 1 },
}

function chatrailBody(): ReadableStream<Uint8Array> {
  const encoder = createUiPartEncoder({ messageId: 'a1' })
  const parts: UiPart[] = [
    ...encoder.start(),
    ...encoder.encode({ type: 'reasoning', content: 'thinking' }),
    ...encoder.encode({ type: 'text', content: 'Which ' }),
    ...encoder.encode({ type: 'text', content: 'day?' }),
    ...encoder.encode({ type: 'done' }),
    ...encoder.finish(snapshot),
  ]
  const text = parts.map(encodeSseEvent).join('') + SSE_DONE
  return new Response(text).body as ReadableStream<Uint8Array>
}

describe('the codec and the AI SDK', () => {
  it('writes the headers the AI SDK writes', () => {
    expect(UI_MESSAGE_STREAM_HEADERS).toEqual(AI_SDK_HEADERS)
  })

  it("the AI SDK's own parser validates every part chatrail writes and builds the message useChat shows", async () => {
    const chunks: UIMessageChunk[] = []
    const parsed = parseJsonEventStream({ stream: chatrailBody(), schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({
        transform(result, controller) {
          if (!result.success) throw result.error
          chunks.push(result.value)
          controller.enqueue(result.value)
        },
      }),
    )
    let last: UIMessage | undefined
    for await (const message of readUIMessageStream({ stream: parsed, terminateOnError: true })) last = message
    expect(chunks.map((chunk) => chunk.type)).toEqual(['start', 'reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'text-delta', 'text-end', 'data-chatrail', 'finish'])
    expect(last?.id).toBe('a1')
    expect(last?.parts).toMatchObject([
      { type: 'reasoning', text: 'thinking', state: 'done' },
      { type: 'text', text: 'Which day?', state: 'done' },
      { type: 'data-chatrail', data: snapshot },
    ])
  })

  it('an error part reaches the AI SDK as an error, with chatrail’s text', async () => {
    const encoder = createUiPartEncoder({ messageId: 'a2', describeError: () => 'AGENT_ERROR' })
    const text = [...encoder.start(), ...encoder.encode({ type: 'text', content: 'par' }), ...encoder.encode({ type: 'error', content: 'secret internals' }), ...encoder.finish(undefined, 'error')].map(encodeSseEvent).join('') + SSE_DONE
    const parsed = parseJsonEventStream({ stream: new Response(text).body as ReadableStream<Uint8Array>, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({ transform: (result, controller) => (result.success ? controller.enqueue(result.value) : controller.error(result.error)) }),
    )
    const errors: Error[] = []
    for await (const message of readUIMessageStream({ stream: parsed, onError: (error) => errors.push(error as Error) })) void message
    expect(errors.map((error) => error.message)).toEqual(['AGENT_ERROR'])
    expect(text).not.toContain('secret internals')
  })

  it('chatrail reads what the AI SDK writes (createUIMessageStreamResponse)', async () => {
    const stream = createUIMessageStream({
      execute({ writer }) {
        writer.write({ type: 'text-start', id: 't1' })
        writer.write({ type: 'text-delta', id: 't1', delta: 'Hello ' })
        writer.write({ type: 'text-delta', id: 't1', delta: 'there' })
        writer.write({ type: 'text-end', id: 't1' })
        writer.write({ type: 'data-chatrail', data: snapshot })
      },
    })
    const response = createUIMessageStreamResponse({ stream })
    const parts: UiPart[] = []
    for await (const part of readUiMessageStream(response.body as ReadableStream<Uint8Array>)) parts.push(part)
    expect(parts.flatMap(uiPartToChunks)).toEqual([{ type: 'text', content: 'Hello ' }, { type: 'text', content: 'there' }, { type: 'done' }])
    expect(parts.find((part) => part.type === 'data-chatrail')).toEqual({ type: 'data-chatrail', data: snapshot })
  })
})

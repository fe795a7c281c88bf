import { APICallError } from 'ai'
import { describe, expect, it } from 'vitest'
import { aiSdkAdapter, ModelProviderError } from '../../src/ai-sdk/index.js'
import type { AdapterRequest } from '../../src/contract/adapter.js'
import { createChatController, sourceChunk, sourcesOf } from '../../src/controller/index.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'
import { hangingStream, scriptedModel, textParts, toolCallParts } from './mock-model.js'
import { drainWithin } from '../support/drain-source.js'

/** aiSdkAdapter against the AI SDK's own mock model: the request mapping and every stream ending. */

const at = new Date(0)
const message = (role: Message['role'], content: string, extra: Partial<Message> = {}): Message => ({ id: `${role}-${content.length}`, role, content, status: 'complete', createdAt: at, ...extra })

const drain = (source: StreamSource, limitMs = 5_000): Promise<StreamChunk[]> => drainWithin(source, limitMs)

describe('aiSdkAdapter (mock model)', () => {
  it('streams text, reasoning and usage, and ends with done carrying the finish reason', async () => {
    const { model } = scriptedModel([[
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
      { type: 'reasoning-end', id: 'r' },
      ...textParts('Hello there').slice(1),
    ]])
    const chunks = await drain(aiSdkAdapter({ model }).createSource({ messages: [message('user', 'hi')] }))
    expect(chunks).toEqual([
      { type: 'reasoning', content: 'thinking' },
      { type: 'text', content: 'Hel' },
      { type: 'text', content: 'lo there' },
      { type: 'usage', usage: { promptTokens: 11, completionTokens: 7, totalTokens: 18 } },
      { type: 'done', metadata: { finishReason: 'stop' } },
    ])
  })

  it("turns a url source into the controller's source chunk, so the reply's metadata.sources gets it; document and malformed sources are left out", async () => {
    const { model } = scriptedModel([[
      { type: 'stream-start', warnings: [] },
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com/a', title: 'Example A' },
      { type: 'source', sourceType: 'url', id: 's2', url: '' },
      { type: 'source', sourceType: 'document', id: 's3', mediaType: 'application/pdf', title: 'A file' },
      ...textParts('Cited').slice(1),
    ]])
    const chunks = await drain(aiSdkAdapter({ model }).createSource({ messages: [message('user', 'hi')] }))
    expect(chunks.slice(0, 2)).toEqual([sourceChunk({ url: 'https://example.com/a', title: 'Example A' }), { type: 'text', content: 'Cit' }])
    expect(chunks.filter((chunk) => chunk.metadata?.source !== undefined)).toHaveLength(1)
    // and through the controller, onto the reply
    const controller = createChatController({ adapter: aiSdkAdapter({ model: scriptedModel([[{ type: 'stream-start', warnings: [] }, { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com/a' }, ...textParts('Cited').slice(1)]]).model }) })
    await controller.send('hi')
    expect(sourcesOf(controller.getState().messages[1]!)).toEqual([{ url: 'https://example.com/a' }])
  })

  it('maps system, user, assistant tool calls and tool results to model messages, without mutating the request', async () => {
    const { model, calls } = scriptedModel([textParts('ok')])
    const request: AdapterRequest = {
      messages: [
        message('system', 'Be brief.', { id: 'chatrail-system-prompt' }),
        message('user', 'Where is order 42?', { id: 'u1' }),
        message('assistant', 'Looking.', { id: 'a1', toolCalls: [{ id: 'call-7', name: 'lookup', args: { order: 42 }, status: 'complete', result: 'shipped' }] }),
        message('tool', 'shipped', { id: 't1', toolCallId: 'call-7' }),
        message('assistant', '', { id: 'a2', status: 'streaming' }),
      ],
      context: { systemPrompt: 'Be brief.', temperature: 0.2, maxTokens: 64, tools: [{ name: 'lookup', description: 'Find an order', schema: { type: 'object', properties: { order: { type: 'number' } }, required: ['order'] } }] },
    }
    const before = JSON.stringify(request)
    const chunks = await drain(aiSdkAdapter({ model, system: 'You are Support.' }).createSource(request))
    expect(chunks.at(-1)?.type).toBe('done')
    expect(JSON.stringify(request)).toBe(before)
    const call = calls[0]
    expect(call?.temperature).toBe(0.2)
    expect(call?.maxOutputTokens).toBe(64)
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'You are Support.\n\nBe brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Where is order 42?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }, { type: 'tool-call', toolCallId: 'call-7', toolName: 'lookup', input: { order: 42 } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call-7', toolName: 'lookup', output: { type: 'text', value: 'shipped' } }] },
    ])
    expect(call?.tools).toEqual([{ type: 'function', name: 'lookup', description: 'Find an order', inputSchema: { type: 'object', properties: { order: { type: 'number' } }, required: ['order'] } }])
  })

  it('a proposed tool call becomes one tool_call chunk with JSON args; the AI SDK runs nothing', async () => {
    const { model, calls } = scriptedModel([toolCallParts('lookup', { order: 42 })])
    const chunks = await drain(aiSdkAdapter({ model }).createSource({ messages: [message('user', 'order 42')], context: { tools: [{ name: 'lookup', execute: () => { throw new Error('the adapter must never run a tool') } }] } }))
    expect(chunks.filter((chunk) => chunk.type !== 'usage')).toEqual([
      { type: 'tool_call', toolCall: { id: 'call-1', name: 'lookup', args: '{"order":42}' } },
      { type: 'done', metadata: { finishReason: 'tool-calls' } },
    ])
    expect(calls).toHaveLength(1)
  })

  it('a provider HTTP error ends as one error chunk carrying the status', async () => {
    for (const status of [429, 500]) {
      const { model } = scriptedModel([() => {
        throw new APICallError({ message: 'slow down', url: 'http://127.0.0.1/v1/messages', requestBodyValues: {}, statusCode: status, isRetryable: true })
      }])
      const chunks = await drain(aiSdkAdapter({ model, maxRetries: 0 }).createSource({ messages: [message('user', 'hi')] }))
      expect(chunks).toHaveLength(1)
      const [chunk] = chunks
      expect(chunk?.type).toBe('error')
      expect(chunk?.metadata?.status).toBe(status)
      expect(chunk?.content).toContain(String(status))
      const error = chunk?.metadata?.error
      expect(ModelProviderError.isInstance(error) && error.status).toBe(status)
    }
  })

  it('an error part mid-stream ends the stream with an error chunk after the text so far', async () => {
    const { model } = scriptedModel([[{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'par' }, { type: 'error', error: new Error('bad chunk') }]])
    const chunks = await drain(aiSdkAdapter({ model }).createSource({ messages: [message('user', 'hi')] }))
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'error'])
    expect(chunks[1]?.metadata?.code).toBe('PROVIDER_STREAM_ERROR')
  })

  it('a stream that goes silent fails with PROVIDER_TIMEOUT after chunkTimeoutMs, never hangs', async () => {
    const { model } = scriptedModel([(options) => hangingStream(textParts('Hello').slice(0, 3), options.abortSignal)])
    const started = Date.now()
    const chunks = await drain(aiSdkAdapter({ model, chunkTimeoutMs: 200 }).createSource({ messages: [message('user', 'hi')] }))
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'error'])
    expect(chunks[1]?.metadata?.code).toBe('PROVIDER_TIMEOUT')
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it('abort mid-stream ends the stream with nothing after it and cancels the model call', async () => {
    let signal: AbortSignal | undefined
    const { model } = scriptedModel([(options) => {
      signal = options.abortSignal
      return hangingStream(textParts('Hello').slice(0, 3), options.abortSignal)
    }])
    const source = aiSdkAdapter({ model }).createSource({ messages: [message('user', 'hi')] })
    const iterator = source.stream()
    const first = await iterator.next()
    expect(first.value).toEqual({ type: 'text', content: 'Hel' })
    source.abort()
    source.abort()
    const rest: StreamChunk[] = []
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) rest.push(step.value)
    expect(rest).toEqual([])
    expect(signal?.aborted).toBe(true)
  })

  it('abort before stream() makes no model call', async () => {
    const { model, calls } = scriptedModel([textParts('never')])
    const source = aiSdkAdapter({ model }).createSource({ messages: [message('user', 'hi')] })
    source.abort()
    expect(await drain(source)).toEqual([])
    expect(calls).toHaveLength(0)
  })

  it('rejects a missing model with a message naming the fix', () => {
    expect(() => aiSdkAdapter({} as never)).toThrow(/pass \{ model \}/)
  })
})

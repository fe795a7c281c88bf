import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter, ModelProviderError } from '../../src/ai-sdk/index.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, defineChat, TRANSITION_TOOL } from '../../src/index.js'
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.js'
import { startOpenAIServer, type OpenAIServer } from '../support/openai-server.js'
import { drainWithin } from '../support/drain-source.js'

/**
 * aiSdkAdapter over the real providers and the scripted servers: provider statuses, a malformed
 * stream, the tool loop through chatrail's controller, and agent-proposed transitions.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

async function anthropicServer(options: Parameters<typeof startAnthropicServer>[0]): Promise<AnthropicServer> {
  const server = await startAnthropicServer(options)
  closers.push(server.close)
  return server
}
async function openaiServer(...script: Parameters<typeof startOpenAIServer>): Promise<OpenAIServer> {
  const server = await startOpenAIServer(...script)
  closers.push(server.close)
  return server
}

const claude = (server: { url: string }) => createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5')
const gpt = (server: OpenAIServer) => createOpenAI({ baseURL: server.baseUrl, apiKey: 'scripted-key' })('gpt-4.1-mini')
const user = (content: string, id = 'u1'): Message => ({ id, role: 'user', content, status: 'complete', createdAt: new Date(0) })
const noopTool = { name: 'noop', schema: { type: 'object' as const, properties: {} } }

const drain = (source: StreamSource, limitMs = 10_000): Promise<StreamChunk[]> => drainWithin(source, limitMs)

describe('aiSdkAdapter over real providers', () => {
  it('Anthropic thinking, text and usage arrive as reasoning, text and usage chunks, then done with the finish reason', async () => {
    const server = await anthropicServer({ turns: [{ content: [{ type: 'thinking', thinking: 'The user greets me.' }, { type: 'text', text: 'Hello there!' }] }] })
    const chunks = await drain(aiSdkAdapter({ model: claude(server), maxRetries: 0 }).createSource({ messages: [user('hi')], context: { tools: [noopTool] } }))
    expect(chunks).toEqual([
      { type: 'reasoning', content: 'The user greets me.' },
      { type: 'text', content: 'Hello ' },
      { type: 'text', content: 'there!' },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 12, totalTokens: 22 } },
      { type: 'done', metadata: { finishReason: 'stop' } },
    ])
  })

  it('Anthropic 429 and 500 end as one error chunk with the status', async () => {
    for (const status of [429, 500]) {
      const server = await anthropicServer({ turns: [{ error: { status, type: status === 429 ? 'rate_limit_error' : 'api_error', message: 'scripted' } }] })
      const chunks = await drain(aiSdkAdapter({ model: claude(server), maxRetries: 0 }).createSource({ messages: [user('hi')], context: { tools: [noopTool] } }))
      expect(chunks.map((chunk) => chunk.type)).toEqual(['error'])
      expect(chunks[0]?.metadata?.status).toBe(status)
      expect(chunks[0]?.metadata?.code).toBe('PROVIDER_ERROR')
    }
  })

  it('OpenAI 429 ends as an error chunk with the status after the AI SDK retries it', async () => {
    // retry-after-ms: the retry comes after 10 ms, not the AI SDK's 2 s backoff
    const server = await openaiServer([{ type: 'http_error', status: 429, message: 'slow down', retryAfterMs: 10 }, { type: 'http_error', status: 429, message: 'slow down', retryAfterMs: 10 }])
    const chunks = await drain(aiSdkAdapter({ model: gpt(server), maxRetries: 1 }).createSource({ messages: [user('hi')] }), 20_000)
    expect(chunks.map((chunk) => chunk.type)).toEqual(['error'])
    expect(chunks[0]?.metadata?.status).toBe(429)
    expect(server.requests).toHaveLength(2)
  })

  it('a malformed SSE stream ends as an error, never a hang', async () => {
    // a model server that answers 200 text/event-stream and then sends something that is not the protocol
    const garbage: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}\n\n')
      res.write('event: content_block_delta\ndata: {not json at all\n\n')
      res.end()
    })
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise<void>((resolve) => garbage.close(() => resolve())))
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`
    const chunks = await drain(aiSdkAdapter({ model: claude({ url }), maxRetries: 0 }).createSource({ messages: [user('hi')] }))
    expect(chunks.at(-1)?.type).toBe('error')
    expect(chunks.filter((chunk) => chunk.type === 'error' || chunk.type === 'done')).toHaveLength(1)
    expect(ModelProviderError.isInstance(chunks.at(-1)?.metadata?.error)).toBe(true)
  })

  it('a stream the server cuts off before its end is an error, not an answer', async () => {
    const server = await anthropicServer({ turns: [{ hang: { text: 'Half an ans' } }] })
    const source = aiSdkAdapter({ model: claude(server), maxRetries: 0, chunkTimeoutMs: 30_000 }).createSource({ messages: [user('hi')], context: { tools: [noopTool] } })
    const iterator = source.stream()
    expect((await iterator.next()).value).toEqual({ type: 'text', content: 'Half an ans' })
    await server.close() // destroys the open response mid-stream
    const rest: StreamChunk[] = []
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) rest.push(step.value)
    expect(rest.map((chunk) => chunk.type)).toEqual(['error'])
  })

  it('abort mid-stream stops the HTTP stream and yields nothing more', async () => {
    const server = await anthropicServer({ turns: [{ hang: { text: 'Working on it' } }] })
    const source = aiSdkAdapter({ model: claude(server), maxRetries: 0 }).createSource({ messages: [user('hi')], context: { tools: [noopTool] } })
    const iterator = source.stream()
    expect((await iterator.next()).value).toEqual({ type: 'text', content: 'Working on it' })
    source.abort()
    const rest = await drain({ stream: () => iterator, abort: () => undefined }, 5_000)
    expect(rest).toEqual([])
  })

  it('a tool call runs once, in the controller, and its result goes back to the model', async () => {
    const server = await anthropicServer({
      turns: [
        { content: [{ type: 'tool_use', name: 'lookup_order', input: { order: 42 }, id: 'toolu_42' }] },
        { content: [{ type: 'text', text: 'Order 42 has shipped.' }] },
      ],
    })
    const runs: unknown[] = []
    const controller = createChatController({
      adapter: aiSdkAdapter({ model: claude(server), maxRetries: 0 }),
      tools: [{ name: 'lookup_order', description: 'Find an order', schema: { type: 'object', properties: { order: { type: 'number' } }, required: ['order'] }, execute: (args) => { runs.push(args); return 'shipped' } }],
    })
    await controller.send('Where is order 42?')
    expect(runs).toEqual([{ order: 42 }])
    const main = server.requests.filter((request) => !request.side)
    expect(main).toHaveLength(2)
    expect(main[0]?.body.tools).toEqual([expect.objectContaining({ name: 'lookup_order', description: 'Find an order' })])
    const second = main[1]?.body.messages as Array<{ role: string; content: unknown }>
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_42', name: 'lookup_order', input: { order: 42 } }] })
    expect(second.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_42', content: 'shipped' }] })
    const messages = controller.getState().messages
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Order 42 has shipped.', status: 'complete' })
    expect(messages.find((message) => message.role === 'tool')).toMatchObject({ content: 'shipped', toolCallId: 'toolu_42' })
  })
})

describe('agent-proposed transitions through aiSdkAdapter', () => {
  const states = { idle: { on: { escalate: 'human', help: 'idle' } }, human: { on: { resolve: 'idle' } } } as const
  const definition = (server: AnthropicServer) => defineChat({
    id: 'ai-sdk-transitions',
    chat: { adapter: aiSdkAdapter({ model: claude(server), maxRetries: 0 }) },
    conversation: { initial: 'idle', states, routes: [], agentTransitions: true },
  })

  it('the model sees the allowed events as the chatrail_transition tool; a legal proposal moves the machine', async () => {
    const server = await anthropicServer({ turns: [{ content: [{ type: 'text', text: 'Handing you over.' }, { type: 'tool_use', name: TRANSITION_TOOL, input: { event: 'escalate' } }] }] })
    const session = createChatSession(definition(server))
    const controller = createChatController(session.chat)
    await controller.send('I want a human')
    const tools = server.requests[0]?.body.tools as Array<{ name: string; input_schema: { properties: { event: { enum: string[] } } } }>
    expect(tools.map((tool) => tool.name)).toEqual([TRANSITION_TOOL])
    expect(tools[0]?.input_schema.properties.event.enum).toEqual(['escalate', 'help'])
    expect(session.getSnapshot().state).toBe('human')
    expect(session.traces().at(-1)).toMatchObject({ kind: 'agentic', outcome: 'ok', event: 'escalate', fromState: 'idle', toState: 'human' })
    expect(controller.getState().messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Handing you over.' })
    // the proposal never reached the controller as a tool call to run
    expect(controller.getState().messages.some((message) => message.role === 'tool' || (message.toolCalls?.length ?? 0) > 0)).toBe(false)
  })

  it('an undeclared event is refused: the state stays and the turn is traced as repaired', async () => {
    const server = await anthropicServer({ turns: [{ content: [{ type: 'text', text: 'Done.' }, { type: 'tool_use', name: TRANSITION_TOOL, input: { event: 'resolve' } }] }] })
    const session = createChatSession(definition(server))
    const controller = createChatController(session.chat)
    await controller.send('close it')
    expect(session.getSnapshot().state).toBe('idle')
    expect(session.traces().at(-1)).toMatchObject({ kind: 'repaired', reason: 'undeclared-event' })
  })
})

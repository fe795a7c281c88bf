import { createAnthropic } from '@ai-sdk/anthropic'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import { httpAdapter } from '../../src/client/index.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { startAnthropicServer, type AnthropicServer } from '../support/anthropic-server.js'
import { listen, type Listening } from '../server/support/harness.js'

/**
 * The whole path: httpAdapter (the page) → createChatHandler → aiSdkAdapter → @ai-sdk/anthropic →
 * the scripted Anthropic server, every hop real HTTP on 127.0.0.1.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

async function serve(server: AnthropicServer): Promise<Listening> {
  const definition = defineChat({
    id: 'served-model',
    chat: { adapter: aiSdkAdapter({ model: createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5'), maxRetries: 0 }) },
    // agent transitions give every model request a tool, which makes it a scripted ("main") request to the Anthropic server
    conversation: { initial: 'idle', states: { idle: { on: { start: 'asking' } }, asking: {} }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' })], agentTransitions: true },
  })
  const http = await listen(createChatHandler({ definition, store: memoryStore(), authenticate: 'none' }))
  closers.push(http.close)
  return http
}

async function turn(url: string, conversationId: string, text: string): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = []
  for await (const chunk of httpAdapter({ api: url, conversationId }).createSource({ messages: [{ id: 'u1', role: 'user', content: text, status: 'complete', createdAt: new Date(0) }] }).stream()) chunks.push(chunk)
  return chunks
}

describe('aiSdkAdapter behind createChatHandler, read by httpAdapter', () => {
  it('a route answers without the model; free text streams the model\'s answer', async () => {
    const model = await startAnthropicServer({ turns: [{ content: [{ type: 'text', text: 'Hello from the model.' }] }] })
    closers.push(model.close)
    const http = await serve(model)
    const routed = await turn(http.url, 'c1', '/start')
    expect(routed.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toBe('Which day?')
    expect(model.requests).toHaveLength(0)
    const free = await turn(http.url, 'c2', 'hello')
    expect(free.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toBe('Hello from the model.')
    expect(free.at(-1)).toMatchObject({ type: 'done', metadata: { chatrailSnapshot: { trace: { kind: 'agentic' } } } })
  })

  it('a provider 429 reaches the page as an error chunk with the code only, never the provider\'s text', async () => {
    const model = await startAnthropicServer({ turns: [], fallback: { error: { status: 429, type: 'rate_limit_error', message: 'secret-org-id over quota' } } })
    closers.push(model.close)
    const http = await serve(model)
    const chunks = await turn(http.url, 'c3', 'hello')
    expect(chunks.map((chunk) => chunk.type)).toEqual(['error'])
    expect(chunks[0]?.metadata?.code).toBe('PROVIDER_ERROR')
    expect(JSON.stringify(chunks)).not.toContain('secret-org-id')
  })
})

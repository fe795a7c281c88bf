import { createAnthropic } from '@ai-sdk/anthropic'
import { afterEach, describe, expect, it } from 'vitest'
import { aiSdkAdapter } from '../../src/ai-sdk/index.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { defineChat } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { startAnthropicServer } from '../support/anthropic-server.js'
import { listen, sendTurn, userMessage } from './support/harness.js'

/**
 * The server's tool loop with a real AI SDK provider: useChat's transport → createChatHandler →
 * aiSdkAdapter → @ai-sdk/anthropic → the scripted Anthropic Messages server, every hop real HTTP on
 * 127.0.0.1. The provider's own request body proves what went back to the model: the tool_use and
 * its tool_result, in the Messages API's shape.
 */

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

describe('server tools through a real provider', () => {
  it('the model asks for a tool, the server runs it, the provider carries the result back, the model answers', async () => {
    const model = await startAnthropicServer({
      turns: [
        { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_01', name: 'stock', input: { sku: 'A-7' } }] },
        { content: [{ type: 'text', text: ' There are 3 left.' }] },
      ],
    })
    closers.push(model.close)
    const stock: ToolDefinition = {
      name: 'stock',
      description: 'Units in stock for a SKU',
      schema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
      execute: (args) => ({ sku: args.sku, units: 3 }),
    }
    const definition = defineChat({
      id: 'served-tools',
      chat: { adapter: aiSdkAdapter({ model: createAnthropic({ baseURL: `${model.url}/v1`, apiKey: 'scripted-key' })('claude-sonnet-4-5'), maxRetries: 0 }), tools: [stock] },
      conversation: { initial: 'open', context: {}, states: { open: {} }, routes: [] },
    })
    const store = memoryStore()
    const http = await listen(createChatHandler({ definition, store, authenticate: 'none' }))
    closers.push(http.close)
    const reply = await sendTurn(http.url, 'c1', [userMessage('u1', 'how many A-7?')])
    expect(reply.text).toBe('Let me look. There are 3 left.')
    const tool = (reply.message?.parts ?? []).find((part) => part.type === 'tool-stock')
    expect(tool).toMatchObject({ state: 'output-available', toolCallId: 'toolu_01', input: { sku: 'A-7' }, output: { sku: 'A-7', units: 3 } })
    const main = model.requests.filter((request) => !request.side)
    expect(main).toHaveLength(2)
    expect((main[0]?.body.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(['stock'])
    const second = JSON.stringify(main[1]?.body.messages)
    expect(second).toContain('"type":"tool_use","id":"toolu_01","name":"stock"')
    expect(second).toContain('"type":"tool_result","tool_use_id":"toolu_01"')
    expect(second).toContain('{\\"sku\\":\\"A-7\\",\\"units\\":3}')
    const stored = await store.load('c1')
    expect(stored?.messages[1]?.content).toBe('Let me look. There are 3 left.')
    expect(stored?.messages[1]?.metadata?.tools).toEqual([expect.objectContaining({ toolCallId: 'toolu_01', state: 'output-available', at: 'Let me look.'.length })])
    await store.close()
  })
})

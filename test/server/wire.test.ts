import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { toolAgent } from './support/agents.js'
import { countingAgent, deliveryDefinition, eventually, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// What travels on the wire beyond text: tool parts for an agent's tool calls; and what happens
// when the socket under a streaming response is torn down (a real TCP close through toNodeHandler).

describe('createChatHandler: the wire', () => {
  let http: Listening
  let store: ConversationStore
  afterEach(async () => {
    await http.close()
  })

  it("an agent's tool call and result stream as tool-input-available / tool-output-available parts useChat reads", async () => {
    store = memoryStore()
    const definition = deliveryDefinition(countingAgent())
    http = await listen(createChatHandler({ definition: { ...definition, chat: { ...definition.chat, adapter: toolAgent } }, store, authenticate: 'none' }))
    const reply = await sendTurn(http.url, 'c1', [userMessage('u1', 'where is my order?')])
    const types = reply.chunks.map((chunk) => chunk.type)
    expect(types).toEqual(['start', 'text-start', 'text-delta', 'text-end', 'tool-input-available', 'tool-output-available', 'text-start', 'text-delta', 'text-end', 'data-chatrail', 'finish'])
    const tool = reply.message?.parts.find((part) => part.type === 'tool-lookup_order')
    expect(tool).toMatchObject({ type: 'tool-lookup_order', toolCallId: 'call-1', state: 'output-available', input: { orderId: 'A-7' }, output: { status: 'shipped' } })
    expect(reply.text).toBe('Looking it up.It shipped.')
    expect((await store.load('c1'))?.messages[1]?.content).toBe('Looking it up.It shipped.')
  })

  it('a client whose socket closes mid-stream corrupts nothing: the turn completes, is stored and frees the conversation', async () => {
    store = memoryStore()
    const agent = countingAgent('I am the agent.')
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' }))
    const open = agent.hold()
    const { port } = new URL(http.url)
    const body = JSON.stringify({ id: 'c1', messages: [userMessage('u1', 'hi there')], trigger: 'submit-message' })
    const socket = connect(Number(port), '127.0.0.1')
    socket.write(`POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
    let seen = ''
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (data: Buffer) => {
        seen += data.toString('utf8')
        if (seen.includes('"text-delta"')) resolve()
      })
      socket.on('error', reject)
    })
    expect(seen).toMatch(/^HTTP\/1\.1 200/)
    socket.destroy() // the TCP connection goes away mid-answer
    await new Promise((resolve) => setTimeout(resolve, 50))
    open()
    await eventually(async () => (await store.load('c1'))?.messages.length === 2)
    expect((await store.load('c1'))?.messages.map((m) => [m.content, m.status])).toEqual([['hi there', 'complete'], ['I am the agent.', 'complete']])
    expect((await store.claim('c1', 'next', { leaseMs: 1000 })).status).toBe('claimed')
  })
})

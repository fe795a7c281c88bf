import { describe, expect, it } from 'vitest'
import { createChatHandler, type ChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition, userMessage } from './support/harness.js'

// How a turn's SSE parts are cut into body chunks: what is written before the event loop turns goes
// out as one chunk (a deterministic turn on the memory store: its whole answer), and an answer that
// waits on its agent still streams what it has before the rest arrives.

const decoder = new TextDecoder()

async function postTurn(handler: ChatHandler, text: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await handler(new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'c1', messages: [userMessage('u1', text)], trigger: 'submit-message' }),
  }))
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
  const body = response.body
  if (!body) throw new Error('the turn has no body')
  return body.getReader()
}

describe('createChatHandler: body chunks', () => {
  it('a deterministic turn on the memory store is one chunk: every part and [DONE]', async () => {
    const reader = await postTurn(createChatHandler({ definition: deliveryDefinition(countingAgent()), store: memoryStore(), authenticate: 'none' }), '/start')
    const first = await reader.read()
    const text = decoder.decode(first.value)
    for (const type of ['start', 'text-start', 'text-delta', 'text-end', 'data-chatrail', 'finish']) expect(text).toContain(`"type":"${type}"`)
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true)
    expect((await reader.read()).done).toBe(true)
  })

  it('an answer waiting on its agent streams what it has first, and the rest when it comes', async () => {
    const agent = countingAgent('I am the agent.')
    const open = agent.hold()
    const reader = await postTurn(createChatHandler({ definition: deliveryDefinition(agent), store: memoryStore(), authenticate: 'none' }), 'hello')
    const first = decoder.decode((await reader.read()).value)
    expect(first).toContain('"delta":"I"')
    expect(first).not.toContain('finish')
    open()
    let rest = ''
    for (let step = await reader.read(); !step.done; step = await reader.read()) rest += decoder.decode(step.value)
    expect(rest).toContain('"delta":" am"')
    expect(rest.endsWith('data: [DONE]\n\n')).toBe(true)
  })
})

import { describe, expect, it } from 'vitest'
import type { AdapterRequest } from '../../src/contract/adapter.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { compileMachine } from '../../src/conversation/machine.js'
import { walkConversation } from '../../src/devtools/turn-walk.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { createLostCard, lostCard } from '../../examples/lost-card/definition.js'

// A turn no route decided is the agent's, unless the definition's fallback answered it (no agent,
// or the agent failed): the server keeps the trace's kind and error class with such an answer, and
// the devtools show it as `fallback`, with why, and without a model call that never happened.

async function talk(definition: typeof lostCard, text: string): Promise<Message[]> {
  const store = memoryStore()
  const chat = createChatHandler({ definition, store, authenticate: 'none' })
  const response = await chat(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }] }) }))
  await response.text()
  const messages = (await store.load('c'))?.messages ?? []
  await store.close()
  return messages
}

const failingAgent = {
  createSource: (_request: AdapterRequest) => ({
    abort: () => undefined,
    // eslint-disable-next-line require-yield
    async *stream(): AsyncIterableIterator<StreamChunk> {
      throw new RangeError('model unreachable')
    },
  }),
}

describe('turns the fallback answered', () => {
  it('no agent: stored with the trace\'s kind and error class; a fallback turn with no model call', async () => {
    const messages = await talk(lostCard, 'I lost my card')
    expect(messages[1]?.metadata).toMatchObject({ trace: { kind: 'fallback', outcome: 'ok', errorClass: 'MissingAdapter' } })
    const [turn] = walkConversation(compileMachine(lostCard.conversation), messages).turns
    expect(turn).toMatchObject({ kind: 'fallback', reason: 'missing-adapter', adapterCalls: [] })
  })

  it('the agent failed: a fallback turn with the failed model call', async () => {
    const definition = { ...createLostCard(), chat: { adapter: failingAgent } }
    const messages = await talk(definition, 'I lost my card')
    const [turn] = walkConversation(compileMachine(definition.conversation), messages).turns
    expect(turn).toMatchObject({ kind: 'fallback', reason: 'agent-failed:RangeError', adapterCalls: [{ type: 'model', status: 'error', errorCode: 'RangeError' }] })
  })

  it('the agent answered: agentic, with its model call, and nothing more stored', async () => {
    const agent = { createSource: () => ({ abort: () => undefined, async *stream(): AsyncIterableIterator<StreamChunk> { yield { type: 'text', content: 'Hello.' }; yield { type: 'done' } } }) }
    const definition = { ...createLostCard(), chat: { adapter: agent } }
    const messages = await talk(definition, 'I lost my card')
    expect(messages[1]?.metadata).not.toHaveProperty('trace')
    const [turn] = walkConversation(compileMachine(definition.conversation), messages).turns
    expect(turn).toMatchObject({ kind: 'agentic', adapterCalls: [{ type: 'model', status: 'complete' }] })
    expect(turn).not.toHaveProperty('reason')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { commandRoute, defineChat } from '../../src/index.js'
import { memoryStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition, listen, type Listening } from './support/harness.js'

// An answer over the store's maxMessageBytes used to lose the whole turn (the user message too):
// the one write was refused, the stream said STORE_FAILED, and a retry ran the agent, and its side
// effects, again. Now the answer is stored cut to fit, in the same write as the user message, and a
// retry replays it.

const MAX = 4096
// ~18 kB of text, with multi-byte characters so the cut is counted in UTF-8 bytes of JSON
const reply = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? 'grüße"' : 'lorem')).join(' ')

interface Part { type: string; delta?: string; id?: string; messageId?: string; finishReason?: string; errorText?: string }

async function post(url: string, id: string, messageId: string, text: string): Promise<Part[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, trigger: 'submit-message', messages: [{ id: messageId, role: 'user', parts: [{ type: 'text', text }] }] }),
  })
  expect(response.status).toBe(200)
  return (await response.text()).split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as Part)
}

describe('an answer over maxMessageBytes', () => {
  let server: Listening | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('is stored cut to fit with the user message, in one write; a retry replays it without calling the agent', async () => {
    const agent = countingAgent(reply)
    const store = memoryStore({ maxMessageBytes: MAX })
    const errors: unknown[] = []
    server = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', onError: (error) => errors.push(error) }))

    const parts = await post(server.url, 'big', 'u1', 'tell me everything')
    expect(parts.filter((part) => part.type === 'error')).toEqual([])
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'length' })
    const streamed = parts.filter((part) => part.type === 'text-delta').map((part) => part.delta).join('')
    expect(streamed).toBe(reply)
    expect(agent.calls()).toBe(1)

    const stored = await store.load('big')
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    const [user, answer] = stored?.messages ?? []
    expect(user?.content).toBe('tell me everything')
    expect(answer?.status).toBe('complete')
    expect(reply.startsWith(answer?.content ?? 'x')).toBe(true)
    expect(answer?.content.length).toBeGreaterThan(MAX / 2)
    const bytes = new TextEncoder().encode(JSON.stringify(answer)).byteLength
    expect(bytes).toBeLessThanOrEqual(MAX)
    expect(bytes).toBeGreaterThan(MAX - 16)
    expect(answer?.metadata?.truncated).toEqual({ code: 'ANSWER_TOO_LARGE', bytes: expect.any(Number), maxBytes: MAX })
    expect((answer?.metadata?.truncated as { bytes: number }).bytes).toBeGreaterThan(18_000)
    // the decision record survives the cut: the state is still a function of what was stored
    // the operator is told
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['STORE_MESSAGE_TOO_LARGE'])

    // a network retry of the same message: the stored (cut) answer, same id, no second agent call
    const retry = await post(server.url, 'big', 'u1', 'tell me everything')
    expect(agent.calls()).toBe(1)
    expect(retry.find((part) => part.type === 'start')?.messageId).toBe(answer?.id)
    expect(retry.filter((part) => part.type === 'text-delta').map((part) => part.delta).join('')).toBe(answer?.content)
  }, 30_000)

  it('a deterministic answer cut to fit keeps its decision record: the state after it is the route\'s', async () => {
    const agent = countingAgent()
    let responses = 0
    const definition = defineChat({
      id: 'big-route',
      chat: { adapter: agent.adapter },
      conversation: {
        initial: 'idle',
        context: {},
        states: { idle: { on: { start: 'asking' } }, asking: {} },
        routes: [commandRoute({ id: 'big', command: '/big', event: 'start', response: () => (responses++, reply) })],
      },
    })
    const store = memoryStore({ maxMessageBytes: MAX })
    server = await listen(createChatHandler({ definition, store, authenticate: 'none', onError: () => undefined }))
    const parts = await post(server.url, 'route', 'u1', '/big')
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'length' })
    const answer = (await store.load('route'))?.messages[1]
    expect(answer?.metadata?.chatrail).toMatchObject({ routeId: 'big' })
    expect(answer?.metadata?.truncated).toMatchObject({ code: 'ANSWER_TOO_LARGE' })
    const view = (await (await fetch(`${server.url}?id=route`)).json()) as { chatrail: { state: string } }
    expect(view.chatrail.state).toBe('asking')
    await post(server.url, 'route', 'u1', '/big')
    expect(responses).toBe(1)
    expect(agent.calls()).toBe(0)
  }, 30_000)
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { httpAdapter, HttpAdapterError } from '../../src/client/index.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk, StreamSource } from '../../src/contract/stream.js'
import { createChatController } from '../../src/controller/index.js'
import type { ChatrailPartData } from '../../src/protocol/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { runAdapterContract } from '../../src/testing/vitest.js'
import { countingAgent, deliveryDefinition, eventually, listen, type Listening } from '../server/support/harness.js'
import { drainWithin } from '../support/drain-source.js'

/**
 * httpAdapter against the real handler (createChatHandler + memory store) served by toNodeHandler
 * on 127.0.0.1: chatrail's own controller as the client, over real HTTP and SSE.
 */

let store: ConversationStore
let agent: ReturnType<typeof countingAgent>
let http: Listening
let counter = 0
const nextId = (): string => `conv-${++counter}`

beforeEach(async () => {
  store = memoryStore()
  agent = countingAgent('I am the agent.')
  http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none' }))
})
afterEach(async () => {
  await http.close()
  await store.close()
})

const drain = (source: StreamSource, limitMs = 10_000): Promise<StreamChunk[]> => drainWithin(source, limitMs)

const user = (id: string, content: string) => ({ id, role: 'user' as const, content, status: 'complete' as const, createdAt: new Date(0) })

function remote(conversationId: string, extra: Partial<Parameters<typeof httpAdapter>[0]> = {}) {
  const snapshots: ChatrailPartData[] = []
  const adapter = httpAdapter({ api: http.url, conversationId, onSnapshot: (data) => snapshots.push(data), ...extra })
  return { adapter, snapshots, controller: createChatController({ adapter }) }
}

describe('httpAdapter against createChatHandler', () => {
  it('a deterministic turn: the route answers on the server, the snapshot comes back, nothing calls the agent', async () => {
    const { controller, snapshots } = remote('c1')
    await controller.send('/start')
    const messages = controller.getState().messages
    expect(messages.map((message) => [message.role, message.content, message.status])).toEqual([['user', '/start', 'complete'], ['assistant', 'Which day?', 'complete']])
    expect(snapshots.at(-1)).toMatchObject({ state: 'asking', events: ['date', 'cancel'], trace: { kind: 'deterministic' } })
    expect(agent.calls()).toBe(0)
    const stored = await store.load('c1')
    expect(stored?.messages.map((message) => message.content)).toEqual(['/start', 'Which day?'])
    expect(stored?.messages[0]?.id).toBe(messages[0]?.id)
  })

  it('a UI event travels as metadata.chatrail.event and moves the server machine', async () => {
    const { controller, snapshots } = remote('c-event')
    await controller.send('/start')
    await controller.send('Cancel', { metadata: { chatrail: { event: 'cancel' } } })
    expect(controller.getState().messages.at(-1)?.content).toBe('Cancelled.')
    expect(snapshots.at(-1)?.state).toBe('idle')
  })

  it('free text falls through to the agentic fallback on the server; regenerate asks again (regenerate-message)', async () => {
    const { controller, snapshots } = remote('c2')
    await controller.send('hello there')
    expect(controller.getState().messages.at(-1)).toMatchObject({ role: 'assistant', content: 'I am the agent.', status: 'complete' })
    expect(snapshots.at(-1)?.trace).toMatchObject({ kind: 'agentic' })
    expect(agent.calls()).toBe(1)
    await controller.regenerate()
    expect(agent.calls()).toBe(2)
    const stored = await store.load('c2')
    expect(stored?.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
  })

  it('edit (same message id, new text) is an edit on the server: the new text is stored and answered, not the old one', async () => {
    const { controller } = remote('c-edit')
    await controller.send('/start')
    await controller.send('deliver on 2026-01-05')
    expect(controller.getState().messages.at(-1)?.content).toBe('Booked for 2026-01-05.')
    const userId = controller.getState().messages.at(-2)?.id ?? ''
    await controller.edit(userId, 'deliver on 2026-02-07')
    expect(controller.getState().messages.at(-1)?.content).toBe('Booked for 2026-02-07.')
    const stored = await store.load('c-edit')
    expect(stored?.messages.map((message) => message.content)).toEqual(['/start', 'Which day?', 'deliver on 2026-02-07', 'Booked for 2026-02-07.'])
    // regenerate of the edited message is still a regenerate: the same text, answered again
    await controller.regenerate()
    expect((await store.load('c-edit'))?.messages.map((message) => message.content)).toEqual(['/start', 'Which day?', 'deliver on 2026-02-07', 'Booked for 2026-02-07.'])
    expect(agent.calls()).toBe(0)
  })

  it('a restored conversation noted with its texts: an edit of a restored message is an edit, a regenerate a regenerate', async () => {
    const first = remote('c-restored')
    await first.controller.send('hello there')
    const [question] = first.controller.getState().messages
    const reloaded = remote('c-restored')
    reloaded.controller.setMessages(first.controller.getState().messages)
    reloaded.adapter.noteAnswered([{ id: question?.id ?? '', content: 'hello there' }])
    await reloaded.controller.regenerate()
    expect(agent.calls()).toBe(2)
    await reloaded.controller.edit(question?.id ?? '', '/start')
    expect(reloaded.controller.getState().messages.at(-1)?.content).toBe('Which day?')
    expect((await store.load('c-restored'))?.messages.map((message) => message.content)).toEqual(['/start', 'Which day?'])
  })

  it('the done chunk carries the snapshot; a repeated submit of an unanswered-here message gets the stored answer', async () => {
    const first = await drain(httpAdapter({ api: http.url, conversationId: 'c3' }).createSource({ messages: [user('u1', 'hi')] }))
    expect(first.map((chunk) => chunk.type)).toEqual(['text', 'text', 'text', 'text', 'done'])
    expect(first.at(-1)?.metadata?.chatrailSnapshot).toMatchObject({ state: 'idle' })
    // a fresh adapter (a reloaded page, a network retry) submitting the same message: no second agent call
    const again = await drain(httpAdapter({ api: http.url, conversationId: 'c3' }).createSource({ messages: [user('u1', 'hi')] }))
    expect(again.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toBe('I am the agent.')
    expect(agent.calls()).toBe(1)
  })

  it('stop() mid-turn ends the client stream; the server completes and stores the turn anyway', async () => {
    const open = agent.hold()
    const { controller } = remote('c4')
    const sending = controller.send('tell me something')
    await eventually(async () => controller.getState().messages.at(-1)?.content === 'I')
    controller.stop()
    await sending
    expect(controller.getState().status).not.toBe('streaming')
    open()
    await eventually(async () => (await store.load('c4'))?.messages.at(-1)?.content === 'I am the agent.')
    // Regenerate after the stop runs the turn again; it does not fetch the stored answer back.
    expect(agent.calls()).toBe(1)
    await controller.regenerate()
    expect(agent.calls()).toBe(2)
    expect(controller.getState().messages.at(-1)).toMatchObject({ role: 'assistant', content: 'I am the agent.', status: 'complete' })
  })

  it('409 busy: a second turn while one runs ends as one clear error chunk with the status and Retry-After', async () => {
    const open = agent.hold()
    const running = drain(httpAdapter({ api: http.url, conversationId: 'c5' }).createSource({ messages: [user('u1', 'first')] }))
    await eventually(async () => agent.calls() === 1)
    const chunks = await drain(httpAdapter({ api: http.url, conversationId: 'c5' }).createSource({ messages: [user('u1', 'first'), user('u2', 'second')] }))
    open()
    await running
    expect(chunks).toHaveLength(1)
    const [chunk] = chunks
    expect(chunk).toMatchObject({ type: 'error', metadata: { code: 'conversation_busy', status: 409 } })
    expect(chunk?.content).toMatch(/busy with another turn; retry in \d+ s/)
    const error = chunk?.metadata?.error
    expect(HttpAdapterError.isInstance(error) && error.retryAfter).toBeGreaterThanOrEqual(1)
  })

  it('4xx answers end as an error chunk with the server code and status', async () => {
    const invalid = await drain(httpAdapter({ api: http.url, conversationId: 'not a valid id!' }).createSource({ messages: [user('u1', 'hi')] }))
    expect(invalid).toMatchObject([{ type: 'error', metadata: { code: 'invalid_body', status: 400 } }])
    expect(invalid[0]?.content).toContain('(at id)')
    const secured = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: (request) => (request.headers.get('authorization') === 'Bearer s3cret' ? 'ada' : null) }))
    try {
      const refused = await drain(httpAdapter({ api: secured.url, conversationId: 'c6' }).createSource({ messages: [user('u1', 'hi')] }))
      expect(refused).toMatchObject([{ type: 'error', metadata: { code: 'unauthorized', status: 401 } }])
      const allowed = await drain(httpAdapter({ api: secured.url, conversationId: 'c6', headers: () => ({ authorization: 'Bearer s3cret' }) }).createSource({ messages: [user('u1', '/start')] }))
      expect(allowed.at(-1)?.type).toBe('done')
    } finally {
      await secured.close()
    }
  })

  it('an unreachable server and a stream that is not the protocol end as error chunks, never a hang', async () => {
    const garbage: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end('data: {"type":"text-delta"}\n\n')
    })
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve))
    const port = (garbage.address() as AddressInfo).port
    try {
      const malformed = await drain(httpAdapter({ api: `http://127.0.0.1:${port}/api/chat`, conversationId: 'c7' }).createSource({ messages: [user('u1', 'hi')] }))
      expect(malformed).toMatchObject([{ type: 'error', metadata: { code: 'stream_error' } }])
    } finally {
      await new Promise<void>((resolve) => garbage.close(() => resolve()))
    }
    const unreachable = await drain(httpAdapter({ api: `http://127.0.0.1:${port}/api/chat`, conversationId: 'c7' }).createSource({ messages: [user('u1', 'hi')] }))
    expect(unreachable).toMatchObject([{ type: 'error', metadata: { code: 'network_error' } }])
  })

  it('sends useChat\'s body: only text parts, a user UI event as metadata, no system, tool or placeholder messages', async () => {
    const bodies: unknown[] = []
    const recording: typeof fetch = async (input, init) => {
      bodies.push(JSON.parse(String(init?.body)))
      return fetch(input, init)
    }
    await drain(httpAdapter({ api: http.url, conversationId: 'c8', fetch: recording }).createSource({
      messages: [
        { id: 'chatrail-system-prompt', role: 'system', content: 'Be brief.', status: 'complete', createdAt: new Date(0) },
        { ...user('u1', 'Cancel'), metadata: { chatrail: { event: 'cancel' } } },
        { id: 'a1', role: 'assistant', content: '', status: 'streaming', createdAt: new Date(0) },
      ],
    }))
    expect(bodies).toEqual([{ id: 'c8', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Cancel' }], metadata: { chatrail: { event: 'cancel' } } }] }])
  })

  it('rejects missing options with a message naming the fix', () => {
    expect(() => httpAdapter({ api: '', conversationId: 'x' })).toThrow(/pass \{ api \}/)
    expect(() => httpAdapter({ api: '/api/chat', conversationId: '' })).toThrow(/pass \{ conversationId \}/)
  })
})

runAdapterContract('httpAdapter (createChatHandler over node:http)', (): AdapterFactory => httpAdapter({ api: http.url, conversationId: nextId() }), {
  workCount: () => agent.calls(),
  failing: () => ({ factory: httpAdapter({ api: http.url, conversationId: 'not a valid id!' }) }),
})

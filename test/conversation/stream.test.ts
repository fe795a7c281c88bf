import { describe, expect, it, vi } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { commandRoute, createChatSession, defineChat, isChatrailRouteError } from '../../src/index.js'
import { errorChunk, scriptedAdapter } from '../../src/testing/index.js'
import { runAdapterContract } from '../../src/testing/vitest.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { drain, user } from './helpers.js'

// The session's adapter honours the AgentsKit adapter invariants on every path.

const routeCalls = { n: 0 }
const counting = () =>
  defineChat({
    id: 'contract',
    chat: { adapter: scriptedAdapter([[{ type: 'text', content: 'agent' }, { type: 'done' }]]) },
    conversation: {
      initial: 'a',
      states: { a: { on: { go: 'a' } } },
      routes: [commandRoute({ id: 'hello', command: 'Say hello', event: 'go', response: () => (routeCalls.n++, 'Hello!') })],
    },
  })

runAdapterContract('conversation session (deterministic route)', () => createChatSession(counting(), { lint: false }).chat.adapter, {
  workCount: () => routeCalls.n,
  failing: () => ({
    factory: createChatSession(defineChat({ ...counting(), conversation: { ...counting().conversation, routes: [commandRoute({ id: 'hello', command: 'Say hello', event: 'go', response: () => { throw new Error('x') } })] } }), { lint: false }).chat.adapter,
  }),
  skip: { A5: 'the route emits no tool calls' },
})

runAdapterContract('conversation session (agentic pass-through)', () => createChatSession(createSupportBot(scriptedAdapter([[{ type: 'text', content: 'agent' }, { type: 'done' }]])), { lint: false }).chat.adapter, {
  failing: () => ({
    factory: createChatSession(defineChat({ ...counting(), id: 'failing', chat: { adapter: scriptedAdapter([[errorChunk('down')]]) } }), { lint: false }).chat.adapter,
    request: { messages: [user('no route matches this')] },
  }),
  skip: { A5: 'the scripted agent emits no tool calls' },
})

describe('deterministic streams', () => {
  it('are lazy: nothing is decided before the stream is pulled', () => {
    const response = vi.fn(() => 'x')
    const def = defineChat({ id: 'lazy', chat: { adapter: scriptedAdapter(['a']) }, conversation: { initial: 'a', states: { a: { on: { go: 'a' } } }, routes: [commandRoute({ id: 'r', command: '/x', event: 'go', response })] } })
    const session = createChatSession(def)
    const source = session.chat.adapter.createSource({ messages: [user('/x')] })
    source.stream()
    expect(response).not.toHaveBeenCalled()
    expect(session.traces()).toHaveLength(0)
  })

  it('an abort between the text and done commits nothing and traces aborted', async () => {
    const session = createChatSession(createSupportBot())
    const source = session.chat.adapter.createSource({ messages: [user('/start')] })
    const iterator = source.stream()
    expect((await iterator.next()).value).toMatchObject({ type: 'text' })
    source.abort()
    expect(await iterator.next()).toEqual({ value: undefined, done: true })
    expect(session.getSnapshot().state).toBe('greeting')
    expect(session.traces()).toEqual([expect.objectContaining({ kind: 'deterministic', routeId: 'start', outcome: 'aborted', toState: 'greeting' })])
  })

  it('an iterator return() before done is an abort too', async () => {
    const session = createChatSession(createSupportBot())
    for await (const chunk of session.chat.adapter.createSource({ messages: [user('/start')] }).stream()) {
      expect(chunk.type).toBe('text')
      break
    }
    expect(session.getSnapshot().state).toBe('greeting')
    expect(session.traces()[0]?.outcome).toBe('aborted')
  })

  it('commits exactly when done is handed out, and the done chunk carries the record', async () => {
    const session = createChatSession(createSupportBot())
    const iterator = session.chat.adapter.createSource({ messages: [user('/start', 'm1')] }).stream()
    await iterator.next()
    expect(session.getSnapshot().state).toBe('greeting')
    const done = await iterator.next()
    expect(session.getSnapshot().state).toBe('collecting')
    expect(done.value).toMatchObject({ type: 'done', metadata: { chatrail: { messageId: 'm1', routeId: 'start', toState: 'collecting' } } })
    expect((await iterator.next()).done).toBe(true)
  })

  it('a route error is one error chunk whose metadata.error is a ChatrailRouteError with the cause', async () => {
    const cause = new SyntaxError('bad template')
    const def = defineChat({ id: 'e', chat: { adapter: scriptedAdapter(['a']) }, conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { back: 'a' } } }, routes: [commandRoute({ id: 'oops', command: '/x', event: 'go', response: () => { throw cause } })] } })
    const session = createChatSession(def)
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('/x')] }))
    expect(chunks).toHaveLength(1)
    const error = chunks[0]?.metadata?.error
    expect(isChatrailRouteError(error)).toBe(true)
    expect(error).toMatchObject({ routeId: 'oops', code: 'ROUTE_FAILED', cause })
    expect(session.traces()[0]).toMatchObject({ outcome: 'error', errorClass: 'SyntaxError', reason: 'response-threw', fromState: 'a', toState: 'a' })
  })

  it('a disposed session answers with an error chunk and notifies nobody', async () => {
    const session = createChatSession(createSupportBot())
    const listener = vi.fn()
    session.subscribe(listener)
    session.dispose()
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('/start')] }))
    expect(chunks.map((c) => c.type)).toEqual(['error'])
    expect(listener).not.toHaveBeenCalled()
  })

  it('a slow async response aborted mid-way is traced as aborted once it settles', async () => {
    let release!: (value: string) => void
    const def = defineChat({ id: 'slow', chat: { adapter: scriptedAdapter(['a']) }, conversation: { initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { back: 'a' } } }, routes: [commandRoute({ id: 'slow', command: '/x', event: 'go', response: () => new Promise<string>((resolve) => (release = resolve)) })] } })
    const session = createChatSession(def)
    const source = session.chat.adapter.createSource({ messages: [user('/x')] })
    const pending = source.stream().next()
    source.abort()
    release('late')
    expect(await pending).toEqual({ value: undefined, done: true })
    expect(session.getSnapshot().state).toBe('a')
    expect(session.traces()[0]).toMatchObject({ routeId: 'slow', outcome: 'aborted' })
  })

  it('adapter capabilities are forwarded and the original adapter is never exposed', () => {
    const adapter: AdapterFactory & { createSourceForSession?: unknown } = { ...scriptedAdapter(['a'], { capabilities: { streaming: true, tools: true } }), createSourceForSession: () => undefined }
    const session = createChatSession(createSupportBot(adapter))
    expect(session.chat.adapter.capabilities).toEqual({ streaming: true, tools: true })
    expect(session.chat.adapter).not.toHaveProperty('createSourceForSession')
    expect(session.chat.adapter).not.toBe(adapter)
  })
})

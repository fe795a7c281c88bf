import { describe, expect, it, vi } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { drain, user } from './helpers.js'

// The paths a plain turn never takes (the agentic generator: a failure and the fallback, a stream
// without `done`, agent transitions, components; a route's timeout) are a module of their own,
// loaded by the first turn that takes one (issue 32: out of an app's initial load). Its load state
// is per module instance, and test files may share a worker's modules: each test takes fresh ones,
// so each path below runs on a cold module, on the first turn of a fresh session.

const fresh = async () => {
  vi.resetModules()
  const [chatrail, paths] = await Promise.all([import('../../src/index.js'), import('../../src/conversation/turn-paths.js')])
  return { ...chatrail, requested: paths.turnPathsRequested }
}

const states = { idle: { on: { go: 'busy', escalate: 'human' } }, busy: { on: { go: 'idle' } }, human: {} } as const

const adapterOf = (stream: () => AsyncGenerator<StreamChunk>): AdapterFactory => ({ createSource: () => ({ stream, abort: () => undefined }) })

describe('the rare turn paths, loaded on first use', () => {
  it('a route answer and an adapter streaming to done never load them', async () => {
    const { createChatSession, defineChat, commandRoute, requested } = await fresh()
    const session = createChatSession(defineChat({
      id: 'plain',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' })] },
    }))
    expect((await drain(session.chat.adapter.createSource({ messages: [user('/go', 'm1')] }))).map((chunk) => chunk.type)).toEqual(['text', 'done'])
    expect((await drain(session.chat.adapter.createSource({ messages: [user('/go', 'm1'), user('hello', 'm2')] }))).map((chunk) => chunk.content ?? chunk.type)).toEqual(['agent', 'done'])
    expect(session.traces().map((trace) => [trace.kind, trace.outcome])).toEqual([['deterministic', 'ok'], ['agentic', 'ok']])
    expect(requested()).toBe(false)
  })

  it("the first turn whose adapter fails is answered by the fallback (an error chunk, a throw in createSource, a throw mid-stream)", async () => {
    const failures: AdapterFactory[] = [
      adapterOf(async function* () {
        yield { type: 'error', content: 'boom', metadata: { error: new TypeError('boom') } }
      }),
      { createSource: () => { throw new RangeError('no source') } },
      adapterOf(async function* () {
        yield { type: 'text', content: 'partial ' }
        throw new SyntaxError('mid-stream')
      }),
    ]
    const classes: string[] = []
    for (const adapter of failures) {
      const { createChatSession, defineChat, requested } = await fresh()
      const session = createChatSession(defineChat({ id: 'failing', chat: { adapter }, conversation: { initial: 'idle', states, routes: [], fallback: { response: 'Sorry, try later.' } } }))
      const chunks = await drain(session.chat.adapter.createSource({ messages: [user('hello')] }))
      expect(chunks.at(-2)).toEqual({ type: 'text', content: 'Sorry, try later.' })
      expect(chunks.at(-1)?.type).toBe('done')
      expect(session.traces()[0]).toMatchObject({ kind: 'fallback', outcome: 'ok' })
      classes.push(session.traces()[0]?.errorClass ?? '')
      expect(requested()).toBe(true)
    }
    expect(classes).toEqual(['TypeError', 'RangeError', 'SyntaxError'])
  })

  it('the first turn without an adapter is the fallback\'s; the first that throws without a fallback fails with the fixed phrase', async () => {
    const missing = await fresh()
    const fallbackOnly = missing.createChatSession(missing.defineChat({ id: 'none', chat: {}, conversation: { initial: 'idle', states, routes: [], fallback: { response: 'No agent here.' } } }))
    expect(await drain(fallbackOnly.chat.adapter.createSource({ messages: [user('hello')] }))).toEqual([{ type: 'text', content: 'No agent here.' }, { type: 'done' }])
    expect(fallbackOnly.traces()[0]).toMatchObject({ kind: 'fallback', outcome: 'ok', errorClass: 'MissingAdapter' })

    const throwing = await fresh()
    const adapter = adapterOf(async function* () {
      yield { type: 'text', content: 'half' }
      throw new TypeError('down')
    })
    const session = throwing.createChatSession(throwing.defineChat({ id: 'bare', chat: { adapter }, conversation: { initial: 'idle', states, routes: [] } }))
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('hello')] }))
    expect(chunks).toEqual([{ type: 'text', content: 'half' }, expect.objectContaining({ type: 'error', content: 'Sorry, the assistant could not answer. Please try again.' })])
    expect(chunks[1]?.metadata?.error).toBeInstanceOf(TypeError)
    expect(session.traces()[0]).toMatchObject({ kind: 'agentic', outcome: 'error', errorClass: 'TypeError' })
  })

  it('the first turn whose stream ends without done ends as done', async () => {
    const { createChatSession, defineChat } = await fresh()
    const adapter = adapterOf(async function* () {
      yield { type: 'text', content: 'no done' }
    })
    const session = createChatSession(defineChat({ id: 'open', chat: { adapter }, conversation: { initial: 'idle', states, routes: [] } }))
    expect(await drain(session.chat.adapter.createSource({ messages: [user('hello')] }))).toEqual([{ type: 'text', content: 'no done' }, { type: 'done' }])
    expect(session.traces()[0]).toMatchObject({ kind: 'agentic', outcome: 'ok' })
  })

  it("the first turn with agent transitions commits the agent's legal proposal", async () => {
    const { createChatSession, defineChat, TRANSITION_TOOL } = await fresh()
    const model = scriptedAdapter([[{ type: 'tool_call', toolCall: { id: 'c1', name: TRANSITION_TOOL, args: JSON.stringify({ event: 'escalate' }) } }, { type: 'text', content: 'A person will help.' }, { type: 'done' }]])
    const session = createChatSession(defineChat({ id: 'agent', chat: { adapter: model }, conversation: { initial: 'idle', states, routes: [], agentTransitions: true } }))
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('I want a person', 'h1')] }))
    expect(chunks.map((chunk) => chunk.type)).toEqual(['text', 'done'])
    expect(model.requests[0]?.context?.metadata?.chatrail).toEqual({ state: 'idle', events: ['go', 'escalate'], tool: TRANSITION_TOOL })
    expect(session.getSnapshot().state).toBe('human')
  })

  it('the first turn past a route\'s routeTimeoutMs is answered by the fallback, which hears RouteTimeout', async () => {
    const { createChatSession, defineChat, route } = await fresh()
    const heard: string[] = []
    const session = createChatSession(defineChat({
      id: 'slow',
      chat: {},
      conversation: {
        initial: 'idle',
        states,
        routeTimeoutMs: 20,
        fallback: { response: (_input, ctx) => (heard.push(ctx.errorClass), 'That took too long.') },
        routes: [route({ id: 'hang', match: (input) => input === 'go', event: 'go', response: () => new Promise<string>(() => undefined) })],
      },
    }))
    expect(await drain(session.chat.adapter.createSource({ messages: [user('go')] }))).toEqual([{ type: 'text', content: 'That took too long.' }, { type: 'done' }])
    expect(heard).toEqual(['RouteTimeout'])
    expect(session.traces()[0]).toMatchObject({ outcome: 'timeout', reason: 'route-timeout:hang', errorClass: 'RouteTimeout' })
    expect(session.getSnapshot().state).toBe('idle')
  })
})

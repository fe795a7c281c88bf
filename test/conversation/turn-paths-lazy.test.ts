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
  const [chatrail, paths, wait] = await Promise.all([import('../../src/index.js'), import('../../src/conversation/turn-paths.js'), import('../../src/conversation/load-route-wait.js')])
  return { ...chatrail, requested: paths.turnPathsRequested, waitRequested: wait.routeWaitRequested }
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

  it('a synchronous route table never loads the route wait (route-wait.ts)', async () => {
    const { createChatSession, defineChat, commandRoute, route, waitRequested } = await fresh()
    const session = createChatSession(defineChat({
      id: 'sync',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states, routes: [route({ id: 'custom', match: (input) => input === 'x', response: 'X.' }), commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' })] },
    }))
    await drain(session.chat.adapter.createSource({ messages: [user('/go', 'm1')] }))
    await drain(session.chat.adapter.createSource({ messages: [user('/go', 'm1'), user('x', 'm2')] }))
    expect(session.traces().map((trace) => trace.routeId)).toEqual(['go', 'custom'])
    expect(waitRequested()).toBe(false)
  })

  it('the first asynchronous match and response of a fresh session answer the turn (the wait loads then)', async () => {
    const { createChatSession, defineChat, route, waitRequested } = await fresh()
    const session = createChatSession(defineChat({
      id: 'async',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states, routes: [route({ id: 'later', match: async (input) => input === 'go', event: 'go', response: async () => 'Done later.' })] },
    }))
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('go', 'm1')] }))
    expect(chunks.map((chunk) => chunk.content ?? chunk.type)).toEqual(['Done later.', 'done'])
    expect(session.traces()[0]).toMatchObject({ kind: 'deterministic', outcome: 'ok', routeId: 'later', event: 'go', toState: 'busy' })
    expect(session.getSnapshot().state).toBe('busy')
    expect(waitRequested()).toBe(true)
  })

  it('the first route promise that rejects fails the turn with its cause, never as an unhandled rejection', async () => {
    const { createChatSession, defineChat, route, isChatrailRouteError } = await fresh()
    const unhandled: unknown[] = []
    const listener = (reason: unknown): void => void unhandled.push(reason)
    process.on('unhandledRejection', listener)
    try {
      const cause = new TypeError('no answer')
      const session = createChatSession(defineChat({
        id: 'rejects',
        chat: { adapter: scriptedAdapter(['agent']) },
        // rejected at once: before route-wait.ts has loaded
        conversation: { initial: 'idle', states, routes: [route({ id: 'bad', match: () => true, event: 'go', response: () => Promise.reject(cause) })] },
      }))
      const chunks = await drain(session.chat.adapter.createSource({ messages: [user('go', 'm1')] }))
      expect(chunks).toHaveLength(1)
      expect(chunks[0]).toMatchObject({ type: 'error', content: 'Sorry, that step failed. Nothing was changed; please try again.' })
      expect(isChatrailRouteError(chunks[0]?.metadata?.error)).toBe(true)
      expect((chunks[0]?.metadata?.error as Error).cause).toBe(cause)
      expect(session.traces()[0]).toMatchObject({ outcome: 'error', reason: 'response-threw', errorClass: 'TypeError', routeId: 'bad' })
      expect(session.getSnapshot().state).toBe('idle')
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', listener)
    }
  })

  it('a stop while the first asynchronous route runs ends the turn at once, aborted, nothing committed', async () => {
    const { createChatSession, defineChat, route } = await fresh()
    let signal: AbortSignal | undefined
    const session = createChatSession(defineChat({
      id: 'stopped',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states, routes: [route({ id: 'hang', match: () => true, event: 'go', response: (_input, ctx) => ((signal = ctx.signal), new Promise<string>(() => undefined)) })] },
    }))
    const source = session.chat.adapter.createSource({ messages: [user('go', 'm1')] })
    const pending = source.stream()[Symbol.asyncIterator]().next()
    source.abort()
    expect(await pending).toEqual({ value: undefined, done: true })
    expect(signal?.aborted).toBe(true)
    expect(session.traces()[0]).toMatchObject({ outcome: 'aborted', routeId: 'hang' })
    expect(session.getSnapshot().state).toBe('idle')
  })

  it("the first failing route of a fresh session ends in the fixed phrase, its error class traced", async () => {
    const { createChatSession, defineChat, commandRoute, requested } = await fresh()
    const session = createChatSession(defineChat({
      id: 'throws',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: () => { throw new RangeError('broken') } })] },
    }))
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('/go', 'm1')] }))
    expect(chunks.map((chunk) => [chunk.type, chunk.content])).toEqual([['error', 'Sorry, that step failed. Nothing was changed; please try again.']])
    expect((chunks[0]?.metadata?.error as Error).message).toBe('Route "go" failed: its response threw.')
    expect(session.traces()[0]).toMatchObject({ kind: 'deterministic', outcome: 'error', reason: 'response-threw', errorClass: 'RangeError', routeId: 'go' })
    expect(session.getSnapshot().state).toBe('idle')
    expect(requested()).toBe(true)
  })

  it("a failed route's error and explainTurn word each failure as before (route-failure.ts, loaded when one is reported)", async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['throws', { response: () => { throw new TypeError('x') } }, 'response-threw', 'its response threw'],
      ['invalid', { response: () => 42 }, 'invalid-output', 'its response returned something other than a string or { text, chunks, assign }'],
      ['not-json', { response: () => ({ text: 'ok', assign: { when: new Date(0) } }) }, 'assign-not-json', 'its assign is not JSON'],
      ['guarded', { event: 'guarded' }, 'transition-refused:guard-refused', 'the machine refused the transition (guard returned false)'],
    ]
    for (const [id, options, reason, phrase] of cases) {
      const { createChatSession, defineChat, commandRoute, isChatrailRouteError } = await fresh()
      const session = createChatSession(defineChat({
        id: `fails-${id}`,
        chat: { adapter: scriptedAdapter(['agent']) },
        conversation: {
          initial: 'idle',
          states: { ...states, idle: { on: { ...states.idle.on, guarded: { target: 'busy', guard: () => false } } } },
          routes: [commandRoute({ id, command: '/x', response: 'fine', ...options })],
        },
      }))
      const explained = await session.explainTurn('/x')
      const chunks = await drain(session.chat.adapter.createSource({ messages: [user('/x', 'm1')] }))
      const error = chunks[0]?.metadata?.error
      expect(isChatrailRouteError(error), id).toBe(true)
      expect((error as Error).message, id).toBe(`Route "${id}" failed: ${phrase}.`)
      expect(session.traces()[0], id).toMatchObject({ outcome: 'error', reason, routeId: id })
      // explain runs no response: of these, only the machine's refusal fails there too
      if (id === 'guarded') expect(explained.outcome).toMatchObject({ kind: 'error', outcome: 'error', reason, detail: `the turn fails (${reason}): Route "${id}" failed: ${phrase}.` })
    }
  })

  it('the first turn of a disposed fresh session is its error, with no trace', async () => {
    const { createChatSession, defineChat, ChatrailError } = await fresh()
    const session = createChatSession(defineChat({ id: 'gone', chat: { adapter: scriptedAdapter(['agent']) }, conversation: { initial: 'idle', states, routes: [] } }))
    session.dispose()
    const chunks = await drain(session.chat.adapter.createSource({ messages: [user('hello', 'm1')] }))
    expect(chunks.map((chunk) => [chunk.type, chunk.content])).toEqual([['error', 'This conversation session was disposed.']])
    const error = chunks[0]?.metadata?.error
    expect(ChatrailError.isInstance(error) && error.code).toBe('SESSION_DISPOSED')
    expect(session.traces()).toEqual([])
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

import { describe, expect, it, vi } from 'vitest'
import { resolveRoutes } from '../../src/conversation/decide.js'
import { compileMachine } from '../../src/conversation/machine.js'
import { buildRouteIndex } from '../../src/conversation/route-index.js'
import { commandRoute, createChatSession, defineChat, route, type ChatDefinition } from '../../src/index.js'
import { drive } from './chat-driver.js'

// Issue 19 §3: routes that can't hang a turn. `ctx.signal` is aborted on stop; a stop during an
// async route traces `aborted` at once; `routeTimeoutMs` ends a hung route with the fallback answer.

/** Fails the test (instead of hanging it) when `promise` does not settle within `ms`. */
function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms))])
}

function hanging(options: { routeTimeoutMs?: number; perRoute?: number; fallback?: ChatDefinition['conversation']['fallback']; seen?: AbortSignal[] } = {}): ChatDefinition {
  return defineChat({
    id: 'hang',
    chat: {},
    conversation: {
      initial: 'idle',
      states: { idle: { on: { go: 'busy' } }, busy: { on: { go: 'idle' } } },
      ...(options.routeTimeoutMs === undefined ? {} : { routeTimeoutMs: options.routeTimeoutMs }),
      routes: [
        route({
          id: 'hang',
          match: (input) => input === 'go',
          event: 'go',
          ...(options.perRoute === undefined ? {} : { routeTimeoutMs: options.perRoute }),
          response: (_input, ctx) => {
            options.seen?.push(ctx.signal)
            return new Promise<string>(() => {})
          },
        }),
        route({ id: 'slow-match', match: () => new Promise<boolean>(() => {}), event: 'go', states: ['busy'], response: 'never' }),
      ],
      fallback: options.fallback ?? { response: 'Sorry, no answer right now.' },
    },
  })
}

describe('route timeouts', () => {
  it('a response that never settles ends the turn with the fallback answer, outcome timeout, nothing committed', async () => {
    const chat = drive(hanging({ routeTimeoutMs: 40 }))
    await within(chat.say('go'))
    expect(chat.reply()).toBe('Sorry, no answer right now.')
    expect(chat.controller.getState().status).not.toBe('streaming')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'timeout', routeId: 'hang', event: 'go', fromState: 'idle', toState: 'idle', errorClass: 'RouteTimeout' })
    expect(chat.session.getSnapshot().state).toBe('idle')
    expect(chat.messages().at(-1)?.metadata?.chatrail).toBeUndefined()
    expect(chat.rebuilt().getSnapshot().state).toBe('idle')
  })

  it('a route-level routeTimeoutMs overrides the conversation default', async () => {
    const chat = drive(hanging({ routeTimeoutMs: 60_000, perRoute: 30 }))
    const started = Date.now()
    await within(chat.say('go'))
    expect(chat.last()?.outcome).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(30_000)
  })

  it('an async match that never settles times out too, and the timeout aborts ctx.signal', async () => {
    const seen: AbortSignal[] = []
    const def = hanging({ routeTimeoutMs: 30, seen })
    const chat = drive(def, { start: { state: 'busy' } })
    await within(chat.say('anything'))
    expect(chat.last()).toMatchObject({ outcome: 'timeout', routeId: 'slow-match' })
    const first = drive(def)
    await within(first.say('go'))
    expect(seen[0]?.aborted).toBe(true)
  })

  it('a fallback function hears errorClass RouteTimeout', async () => {
    const response = vi.fn((_input: string, ctx: { errorClass: string }) => `fallback (${ctx.errorClass})`)
    const chat = drive(hanging({ routeTimeoutMs: 20, fallback: { response } }))
    await within(chat.say('go'))
    expect(chat.reply()).toBe('fallback (RouteTimeout)')
  })

  it('without a fallback the fixed apology answers', async () => {
    const def = defineChat({
      id: 'nofb',
      chat: { adapter: { createSource: () => ({ stream: async function* () { yield { type: 'done' as const } }, abort: () => undefined }) } },
      conversation: { initial: 'a', routeTimeoutMs: 20, states: { a: { on: { go: 'b' } }, b: {} }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: () => new Promise<string>(() => {}) })] },
    })
    const chat = drive(def)
    await within(chat.say('/go'))
    expect(chat.reply()).toMatch(/took too long/)
    expect(chat.last()?.outcome).toBe('timeout')
  })

  it('stopping during an async route aborts ctx.signal and traces aborted at once, before the route settles', async () => {
    const seen: AbortSignal[] = []
    const chat = drive(hanging({ seen }))
    const sending = chat.say('go')
    await vi.waitFor(() => expect(seen).toHaveLength(1))
    chat.controller.stop()
    await within(sending)
    expect(seen[0]?.aborted).toBe(true)
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'aborted', routeId: 'hang', fromState: 'idle', toState: 'idle' })
    expect(chat.session.getSnapshot().state).toBe('idle')
  })

  it('a timed-out turn caches nothing: a retry runs the route again', async () => {
    let calls = 0
    const def = defineChat({
      id: 'retry',
      chat: {},
      conversation: {
        initial: 'a',
        routeTimeoutMs: 20,
        states: { a: { on: { go: 'b' } }, b: {} },
        routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: () => (++calls === 1 ? new Promise<string>(() => {}) : Promise.resolve('done')) })],
        fallback: { response: 'later' },
      },
    })
    const chat = drive(def)
    await within(chat.say('/go'))
    expect(chat.last()?.outcome).toBe('timeout')
    await within(chat.controller.retry())
    expect(calls).toBe(2)
    expect(chat.reply()).toBe('done')
    expect(chat.session.getSnapshot().state).toBe('b')
  })

  it('the fallback after a timeout gets a live ctx.signal of its own, so it can still fetch', async () => {
    const fallbackSignals: { signal: AbortSignal; aborted: boolean }[] = []
    const seen: AbortSignal[] = []
    const response = (_input: string, ctx: { signal: AbortSignal }) => {
      fallbackSignals.push({ signal: ctx.signal, aborted: ctx.signal.aborted })
      return Promise.resolve('fallback answered')
    }
    const chat = drive(hanging({ routeTimeoutMs: 20, seen, fallback: { response } }))
    await within(chat.say('go'))
    expect(seen[0]?.aborted).toBe(true)
    expect(fallbackSignals).toHaveLength(1)
    expect(fallbackSignals[0]?.aborted).toBe(false)
    expect(fallbackSignals[0]?.signal).not.toBe(seen[0])
    expect(chat.reply()).toBe('fallback answered')
    expect(chat.last()?.outcome).toBe('timeout')
  })

  it('a stop while the fallback runs ends the turn\'s stream at once and aborts the fallback\'s signal', async () => {
    const fallbackSignals: { signal: AbortSignal; aborted: boolean }[] = []
    const response = (_input: string, ctx: { signal: AbortSignal }) => {
      fallbackSignals.push({ signal: ctx.signal, aborted: ctx.signal.aborted })
      return new Promise<string>(() => {})
    }
    // The fallback's own limit (the same 300 ms) is far off when the stop comes.
    const session = createChatSession(hanging({ routeTimeoutMs: 300, fallback: { response } }), { lint: false })
    const source = session.chat.adapter.createSource({ messages: [{ id: 'u1', role: 'user', content: 'go', status: 'complete', createdAt: new Date(0) }] })
    const pending = source.stream()[Symbol.asyncIterator]().next()
    await vi.waitFor(() => expect(fallbackSignals).toHaveLength(1), { interval: 2 })
    source.abort()
    await expect(within(pending, 150)).resolves.toEqual({ value: undefined, done: true })
    expect(fallbackSignals[0]?.aborted).toBe(false)
    expect(fallbackSignals[0]?.signal.aborted).toBe(true)
    expect(session.traces().at(-1)).toMatchObject({ outcome: 'aborted', routeId: 'hang' })
  })

  it('a fallback that never settles is bounded by the same routeTimeoutMs: the fixed apology answers, as when it throws', async () => {
    const fallbackSignals: AbortSignal[] = []
    const response = (_input: string, ctx: { signal: AbortSignal }) => {
      fallbackSignals.push(ctx.signal)
      return new Promise<string>(() => {})
    }
    const chat = drive(hanging({ routeTimeoutMs: 20, fallback: { response } }))
    await within(chat.say('go'), 1000)
    expect(chat.reply()).toMatch(/took too long/)
    expect(chat.last()).toMatchObject({ outcome: 'timeout', routeId: 'hang', errorClass: 'RouteTimeout' })
    expect(fallbackSignals[0]?.aborted).toBe(true)
    const throwing = drive(hanging({ routeTimeoutMs: 20, fallback: { response: () => Promise.reject(new Error('down')) } }))
    await within(throwing.say('go'), 1000)
    expect(throwing.reply()).toBe(chat.reply())
  })

  it('an async route on an already-stopped turn does not wait out its routeTimeoutMs', async () => {
    const def = hanging({ routeTimeoutMs: 60_000 })
    const stopped = new AbortController()
    stopped.abort()
    const machine = compileMachine({ ...def.conversation, context: {} })
    const ctx = { input: 'go', uiEvent: undefined, state: 'idle', context: {}, history: [], sessionId: 's', messageId: 'm', turnId: 't', signal: stopped.signal }
    const timedOut = vi.fn()
    const resolving = resolveRoutes(machine, buildRouteIndex(def.conversation.routes), ctx, machine.initial, def.conversation, { waiting: () => undefined, timedOut })
    await expect(within(Promise.resolve(resolving), 1000)).resolves.toMatchObject({ type: 'timeout', route: { id: 'hang' } })
    expect(timedOut).not.toHaveBeenCalled()
  })
})

import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createTraceLog, isoTime, notifyTraceListeners, type TurnTrace } from '../../src/conversation/trace.js'
import { createChatSession } from '../../src/index.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { assistant, turn, user } from './helpers.js'

const trace = (n: number): TurnTrace => ({ kind: 'agentic', outcome: 'ok', fromState: 's', toState: 's', sessionId: 'x', turnId: `t${n}`, replayed: false, at: '', durationMs: 0 })

describe('traces', () => {
  it('isoTime equals Date#toISOString for any time', () => {
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => isoTime(ms) === new Date(ms).toISOString()))
    expect(isoTime(Date.UTC(2026, 0, 1, 23, 59, 59, 999))).toBe('2026-01-01T23:59:59.999Z')
  })

  it('the log keeps the last maxTraces, oldest first, and its list is stable until the next add', () => {
    const log = createTraceLog(3)
    for (let i = 0; i < 5; i++) log.add(trace(i))
    const list = log.list()
    expect(list.map((t) => t.turnId)).toEqual(['t2', 't3', 't4'])
    expect(log.list()).toBe(list)
    expect(Object.isFrozen(list)).toBe(true)
    log.add(trace(5))
    expect(log.list().map((t) => t.turnId)).toEqual(['t3', 't4', 't5'])
    const none = createTraceLog(0)
    none.add(trace(1))
    expect(none.list()).toEqual([])
  })

  it('listeners that throw or reject never reach the caller; the others still run', async () => {
    const seen = vi.fn()
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      notifyTraceListeners([() => { throw new Error('a') }, () => Promise.reject(new Error('b')), undefined, seen], trace(1))
      await new Promise((resolve) => setTimeout(resolve, 10))
    } finally {
      process.off('unhandledRejection', unhandled)
    }
    expect(seen).toHaveBeenCalledTimes(1)
    expect(unhandled).not.toHaveBeenCalled()
  })

  it('sessions stamp time from the injected clock, with the duration of the turn', async () => {
    let now = Date.UTC(2026, 6, 11, 9, 30, 0, 0)
    const session = createChatSession(createSupportBot(), { sessionId: 'demo-1', clock: () => new Date((now += 5)) })
    await turn(session.chat.adapter, [user('/start', 'm1')])
    const [first] = session.traces()
    expect(first).toEqual({
      kind: 'deterministic', outcome: 'ok', routeId: 'start', event: 'start', fromState: 'greeting', toState: 'collecting',
      sessionId: 'demo-1', turnId: 'demo-1:1', messageId: 'm1', replayed: false, at: '2026-07-11T09:30:00.005Z', durationMs: 5,
    })
    expect(Object.isFrozen(first)).toBe(true)
  })

  it('maxTraces bounds a session; per-session and definition observers both hear every turn', async () => {
    const fromDefinition = vi.fn()
    const base = createSupportBot()
    const def = { ...base, conversation: { ...base.conversation, onTrace: fromDefinition } }
    const fromSession = vi.fn()
    const session = createChatSession(def, { maxTraces: 2, onTrace: fromSession, lint: false })
    const history = [user('hi', 'a'), assistant('x', 'b'), user('/start', 'c'), assistant('x', 'd'), user('/cancel', 'e')]
    for (const end of [1, 3, 5]) await turn(session.chat.adapter, history.slice(0, end))
    expect(session.traces().map((t) => t.routeId)).toEqual(['start', 'cancel'])
    expect(fromDefinition).toHaveBeenCalledTimes(3)
    expect(fromSession).toHaveBeenCalledTimes(3)
  })
})

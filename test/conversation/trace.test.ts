import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { isoTime, notifyTraceListeners, type TurnTrace } from '../../src/conversation/trace.js'
import { createTraceLog, type RecordedTurn } from '../../src/conversation/trace-log.js'
import { createChatSession, isChatrailConfigError } from '../../src/index.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { assistant, turn, user } from './helpers.js'

const trace = (n: number): TurnTrace => ({ kind: 'agentic', outcome: 'ok', fromState: 's', toState: 's', sessionId: 'x', turnId: `t${n}`, replayed: false, at: '', durationMs: 0 })

describe('traces', () => {
  it('isoTime equals Date#toISOString for any time', () => {
    fc.assert(fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => isoTime(ms) === new Date(ms).toISOString()))
    expect(isoTime(Date.UTC(2026, 0, 1, 23, 59, 59, 999))).toBe('2026-01-01T23:59:59.999Z')
  })

  it('the log keeps the last maxTraces, oldest first, and its list is stable until the next add', () => {
    const log = createTraceLog(3, 'x', (n) => `t${n}`)
    // Even turns carry the session's number (the log builds their id), odd ones an id of their own.
    const entry = (n: number): RecordedTurn => ({ kind: 'agentic', outcome: 'ok', routeId: undefined, event: undefined, fromState: 's', toState: 's', turnId: `t${n}`, turnNumber: n % 2 === 0 ? n : undefined, messageId: undefined, replayed: false, startedAt: 0, reason: undefined, errorClass: undefined })
    for (let i = 0; i < 5; i++) log.add(entry(i), 0, undefined)
    const list = log.list()
    expect(list.map((t) => t.turnId)).toEqual(['t2', 't3', 't4'])
    expect(list[2]).toEqual({ ...trace(4), at: '1970-01-01T00:00:00.000Z' })
    expect(log.list()).toBe(list)
    expect(log.latest()).toBe(list[2])
    expect(Object.isFrozen(list)).toBe(true)
    log.add(entry(5), 0, undefined)
    expect(log.list().map((t) => t.turnId)).toEqual(['t3', 't4', 't5'])
    // A trace is built once: listing again after an add returns the same objects for the turns kept.
    expect(log.list()[0]).toBe(list[1])
    // With none kept, observers still get the latest turn's trace.
    const none = createTraceLog(0, 'x', (n) => `t${n}`)
    none.add(entry(1), 7, { untrustedRecords: 2 })
    expect(none.list()).toEqual([])
    expect(none.latest()).toEqual({ ...trace(1), at: '1970-01-01T00:00:00.000Z', durationMs: 7, untrustedRecords: 2 })
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

  it('maxTraces 0 keeps none and observers still hear every turn; Infinity keeps all; anything else is a config error naming maxTraces', async () => {
    const heard: string[] = []
    const none = createChatSession(createSupportBot(), { sessionId: 's', maxTraces: 0, onTrace: (trace) => void heard.push(trace.turnId), lint: false })
    const all = createChatSession(createSupportBot(), { sessionId: 't', maxTraces: Infinity, lint: false })
    for (const id of ['a', 'b', 'c']) {
      await turn(none.chat.adapter, [user('hi', id)])
      await turn(all.chat.adapter, [user('hi', id)])
    }
    expect(none.traces()).toEqual([])
    expect(heard).toEqual(['s:1', 's:2', 's:3'])
    expect(all.traces().map((trace) => trace.turnId)).toEqual(['t:1', 't:2', 't:3'])
    for (const maxTraces of [Number.NaN, -1, 2.5]) {
      let error: unknown
      try {
        createChatSession(createSupportBot(), { maxTraces, lint: false })
      } catch (thrown) {
        error = thrown
      }
      expect(isChatrailConfigError(error) && error.issues[0]?.path).toEqual(['maxTraces'])
    }
  })

  it('turn ids from an ids factory stay as given, even a number from a JavaScript caller', async () => {
    let n = 0
    const session = createChatSession(createSupportBot(), { ids: (() => ++n) as unknown as () => string, lint: false })
    await turn(session.chat.adapter, [user('/start', 'm1')])
    expect(session.traces()[0]?.turnId).toBe('1')
  })

  it('a trace is built once, when first read: the same frozen object in every list and for every observer, its fields fixed at the turn\'s end', async () => {
    const heard: unknown[] = []
    let now = Date.UTC(2026, 6, 11, 9, 30, 0, 0)
    const session = createChatSession(createSupportBot(), { sessionId: 'lazy-1', clock: () => new Date((now += 5)), lint: false })
    await turn(session.chat.adapter, [user('/start', 'l1')])
    const [first] = session.traces()
    await turn(session.chat.adapter, [user('/start', 'l1'), assistant('x', 'l2'), user('hello there', 'l3')])
    const [again, second] = session.traces()
    expect(again).toBe(first)
    expect(second).toMatchObject({ kind: 'fallback', messageId: 'l3', fromState: 'collecting', turnId: 'lazy-1:2' })
    // Read late, still the turn's own time and duration (not the reading's).
    now += 60_000
    expect(second?.at).toBe('2026-07-11T09:30:00.015Z')
    expect(second?.durationMs).toBe(5)
    // With an observer, the trace is built at the turn's end and the list holds the very object it heard.
    const observed = createChatSession(createSupportBot(), { lint: false, onTrace: (trace) => void heard.push(trace) })
    await turn(observed.chat.adapter, [user('/start', 'o1')])
    expect(observed.traces()[0]).toBe(heard[0])
    expect(Object.isFrozen(heard[0])).toBe(true)
  })
})

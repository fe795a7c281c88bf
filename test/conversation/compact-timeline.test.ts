import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, createChatSession, defineChat, type ChatSession, type TurnTrace } from '../../src/index.js'
import { assistant, scripted, textOf, turn, user } from './helpers.js'

/**
 * Issue 20's memory work: a session keeps one slot per user message in parallel arrays, the common
 * route decision as its route (its record rebuilt on demand), and a default turn id as its number.
 * These tests hold the rebuilt parts to what they replaced.
 */

const recordOf = (chunks: StreamChunk[]): unknown => chunks.find((chunk) => chunk.type === 'done')?.metadata?.chatrail

function definition() {
  return defineChat({
    id: 'compact',
    chat: { adapter: scripted('agent says hi', 'agent again', 'agent once more') },
    conversation: {
      initial: 'idle',
      states: { idle: { on: { go: 'busy' } }, busy: { on: { back: 'idle', stay: 'busy' } } },
      routes: [
        commandRoute({ id: 'go', command: '/go', event: 'go', response: 'Going.' }),
        commandRoute({ id: 'stay', command: '/stay', event: 'stay', response: (input) => `Staying (${input}).` }),
        commandRoute({ id: 'back', command: '/back', event: 'back', traceKind: 'repaired', response: { text: 'Back.', chunks: [{ type: 'tool_call', toolCall: { id: 't', name: 'x', args: '{}', status: 'complete' } }] } }),
      ],
    },
  })
}

describe('the compact timeline', () => {
  it('replays a committed route decision with the very record and chunks the live turn sent', async () => {
    for (const ids of [undefined, (() => {
      let n = 0
      return () => `custom-${++n}`
    })()]) {
      const session = createChatSession(definition(), { lint: false, sessionId: 's1', ...(ids ? { ids } : {}) })
      const history: Message[] = []
      for (const text of ['/go', '/stay', '/back']) {
        history.push(user(text))
        const live = await turn(session.chat.adapter, history)
        // Regenerate: the same history again (no answer yet) replays the cached decision.
        const replayed = await turn(session.chat.adapter, history)
        expect(replayed).toEqual(live)
        expect(JSON.stringify(recordOf(replayed))).toBe(JSON.stringify(recordOf(live)))
        history.push(assistant('answer', undefined, { chatrail: recordOf(live) }))
      }
      expect(session.getSnapshot().state).toBe('idle')
      const traces = session.traces()
      expect(traces.map((trace) => [trace.routeId, trace.replayed])).toEqual([['go', false], ['go', true], ['stay', false], ['stay', true], ['back', false], ['back', true]])
      expect(traces[1]?.turnId).toBe(traces[0]?.turnId)
      expect(traces[0]?.turnId).toBe(ids ? 'custom-1' : 's1:1')
    }
  })

  it('keeps decisions through an edit, a regenerate and a history that moved (a system message in front)', async () => {
    // Routes that change the state both ways and count their calls: a decision lost and re-run shows in the counts.
    const calls = { go: 0, back: 0 }
    const counted = defineChat({
      id: 'counted',
      chat: { adapter: scripted('agent says hi') },
      conversation: {
        initial: 'idle',
        states: { idle: { on: { go: 'busy' } }, busy: { on: { back: 'idle' } } },
        routes: [
          commandRoute({ id: 'go', command: '/go', event: 'go', response: () => (calls.go++, 'Going.') }),
          commandRoute({ id: 'back', command: '/back', event: 'back', response: () => (calls.back++, 'Back.') }),
        ],
      },
    })
    const session = createChatSession(counted, { lint: false })
    const state = () => session.getSnapshot().state
    const first = user('/go')
    const history: Message[] = [first]
    const go = await turn(session.chat.adapter, history)
    history.push(assistant('Going.', undefined, { chatrail: recordOf(go) }), user('/back'))
    const back = await turn(session.chat.adapter, history)
    history.push(assistant('Back.', undefined, { chatrail: recordOf(back) }))
    session.sync(history)
    expect([state(), calls]).toEqual(['idle', { go: 1, back: 1 }])
    // The same history behind a system message: every position moved by one.
    const shifted: Message[] = [{ id: 'sys', role: 'system', content: 'be brief', status: 'complete', createdAt: new Date(0) }, ...history]
    session.sync(shifted)
    expect([state(), calls]).toEqual(['idle', { go: 1, back: 1 }])
    // Regenerate /back in the moved history: its kept decision replays, no route runs.
    expect(textOf(await turn(session.chat.adapter, shifted.slice(0, -1)))).toBe('Back.')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'back', replayed: true })
    expect([state(), calls]).toEqual(['idle', { go: 1, back: 1 }])
    session.sync(shifted)
    // Cut back to the first message and edit it: its decision goes, the state follows.
    session.sync([{ ...first, content: 'hello' }])
    expect(state()).toBe('idle')
    // Back to /go alone, then the whole history: the decisions come back from the answers' records, no route runs.
    session.sync(history.slice(0, 2))
    expect([state(), calls]).toEqual(['busy', { go: 1, back: 1 }])
    session.sync(history)
    expect([state(), calls]).toEqual(['idle', { go: 1, back: 1 }])
  })

  it('records the same traces, key for key, with and without an observer', async () => {
    const observed: TurnTrace[] = []
    const clock = () => new Date(Date.UTC(2026, 0, 1))
    const quiet = createChatSession(definition(), { lint: false, sessionId: 'same', clock })
    const watched = createChatSession(definition(), { lint: false, sessionId: 'same', clock, onTrace: (trace) => void observed.push(trace) })
    for (const session of [quiet, watched]) {
      const history: Message[] = []
      for (const text of ['/go', 'hello', '/stay']) {
        history.push(user(text, `${text}-id`))
        await turn(session.chat.adapter, history)
        history.push(assistant('a', `${text}-answer`))
      }
    }
    const lazy = quiet.traces()
    expect(lazy).toBe(quiet.traces())
    expect(lazy.map((trace) => JSON.stringify(trace))).toEqual(observed.map((trace) => JSON.stringify(trace)))
    expect(watched.traces()).toEqual(observed)
    expect(watched.traces()[0]).toBe(observed[0])
    for (const trace of lazy) expect(Object.isFrozen(trace)).toBe(true)
    expect(lazy[1]).toMatchObject({ kind: 'agentic', outcome: 'ok', messageId: 'hello-id', at: '2026-01-01T00:00:00.000Z' })
  })

  it('retains well under 140 B a turn over 10,000 turns, with its history array (issue 20; it was ~470 B)', async () => {
    v8.setFlagsFromString('--expose-gc')
    v8.setFlagsFromString('--no-flush-bytecode')
    const gc = vm.runInNewContext('gc') as () => void
    const heap = (): number => {
      for (let i = 0; i < 4; i++) gc()
      return process.memoryUsage().heapUsed
    }
    const routes = Array.from({ length: 10 }, (_, i) => commandRoute({ id: `r${i}`, command: `/cmd${i}`, event: 'go', response: `resp${i}` }))
    const chat = defineChat({ id: 'memory', chat: { adapter: scripted('x') }, conversation: { initial: 's', states: { s: { on: { go: 's' } } }, routes } })
    const messages = Array.from({ length: 10_000 }, (_, i) => [user(`/cmd${i % 10}`), assistant(`resp${i % 10}`)]).flat()
    const build = async (): Promise<[ChatSession, Message[]]> => {
      const session = createChatSession(chat, { lint: false })
      for (let i = 1; i <= 10_000; i++) await turn(session.chat.adapter, messages.slice(0, 2 * i - 1))
      const history = messages.slice()
      session.sync(history)
      return [session, history]
    }
    const kept: unknown[] = [await build()]
    const sizes: number[] = []
    for (let run = 0; run < 3; run++) {
      const before = heap()
      kept.push(await build())
      sizes.push((heap() - before) / 10_000)
    }
    expect(kept).toHaveLength(4)
    // The median of three builds; the bound leaves room for a collector that keeps a little more.
    expect(sizes.sort((a, b) => a - b)[1]).toBeLessThan(140)
  }, 60_000)
})

import { describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { commandRoute, createChatSession, defineChat, route } from '../../src/index.js'
import { assistant, turn, user } from './helpers.js'

// `timings: true`: where a turn's time went, read from the session's clock. The clock here moves
// only when a route's match function or the adapter moves it, so every figure is exact.

let now = 0
const clock = (): Date => new Date(now)

/** An agent whose first chunk comes 30 ms after its call and whose stream ends 20 ms later. */
const slowAgent: AdapterFactory = {
  createSource: () => ({
    async *stream(): AsyncIterableIterator<StreamChunk> {
      now += 30
      yield { type: 'text', content: 'agent answer' }
      now += 20
      yield { type: 'done' }
    },
    abort: () => undefined,
  }),
}

function definition(adapter: AdapterFactory = slowAgent) {
  return defineChat({
    id: 'timed',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: { idle: { on: { start: 'busy' } }, busy: {} },
      routes: [
        // looked at for every input: 7 ms of the clock, then a miss unless the text is "slow"
        route({ id: 'slow-match', match: async (input) => { now += 7; return input === 'slow' }, response: 'slow route' }),
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Started.' }),
      ],
    },
  })
}

describe('turn timings', () => {
  it('route resolution, the adapter\'s first chunk and its total, in the session clock\'s milliseconds', async () => {
    now = 1_000
    const session = createChatSession(definition(), { clock, timings: true, lint: false })
    await turn(session.chat.adapter, [user('what is up?', 'm1')])
    await turn(session.chat.adapter, [user('what is up?', 'm1'), assistant('agent answer', 'a1'), user('/start', 'm2')])
    await turn(session.chat.adapter, [user('what is up?', 'm1'), assistant('agent answer', 'a1'), user('/start', 'm2'), assistant('Started.', 'a2'), user('slow', 'm3')])
    const [agentic, deterministic, slow] = session.traces()
    expect(agentic).toMatchObject({ kind: 'agentic', timings: { routeMs: 7, adapterFirstChunkMs: 30, adapterMs: 50 }, durationMs: 57 })
    // the slow route's match runs first (7 ms), then /start matches: no adapter call
    expect(deterministic?.timings).toEqual({ routeMs: 7 })
    expect(deterministic?.routeId).toBe('start')
    expect(slow?.timings).toEqual({ routeMs: 7 })
    expect(Object.isFrozen(agentic?.timings)).toBe(true)
  })

  it('a replayed turn has none; a session without the option records none', async () => {
    now = 0
    const session = createChatSession(definition(), { clock, timings: true, lint: false })
    const history = [user('/start', 'm1')]
    const chunks = await turn(session.chat.adapter, history)
    // regenerate: the cached decision answers again
    await turn(session.chat.adapter, history)
    const [first, replay] = session.traces()
    expect(first?.timings).toEqual({ routeMs: 7 })
    expect(replay).toMatchObject({ replayed: true })
    expect(replay?.timings).toBeUndefined()
    expect(chunks.at(-1)?.type).toBe('done')

    const plain = createChatSession(definition(), { clock, lint: false })
    await turn(plain.chat.adapter, [user('what is up?', 'p1')])
    expect(plain.traces()[0]).not.toHaveProperty('timings')
  })
})

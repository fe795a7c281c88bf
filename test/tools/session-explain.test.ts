import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatSession, defineChat, textRoute } from '../../src/index.js'
import { lostCard } from './fixtures/lost-card.js'

/**
 * `session.explain(input)` explains in the session's current state and context, and agrees with
 * the turn itself: the route it says answers is the route the turn's trace names.
 */

let ids = 0
const user = (content: string): Message => ({ id: `m${++ids}`, role: 'user', content, status: 'complete', createdAt: new Date(0) })

async function turn(session: ReturnType<typeof createChatSession>, history: Message[], text: string): Promise<void> {
  history.push(user(text))
  let reply = ''
  for await (const chunk of session.chat.adapter.createSource({ messages: history }).stream()) if (chunk.type === 'text') reply += chunk.content
  history.push({ id: `m${++ids}`, role: 'assistant', content: reply, status: 'complete', createdAt: new Date(0) })
}

describe('session.explain', () => {
  it('explains in the current state, and names the route the turn then takes', async () => {
    const session = createChatSession(lostCard, { lint: false })
    const history: Message[] = []
    for (const text of ['/start', 'it ends in 4821', '/help', 'fees', 'nonsense', '/cancel', '/again']) {
      const state = session.getSnapshot().state
      const entries = await session.explain(text)
      expect(entries.map((entry) => entry.routeId)).toEqual(lostCard.conversation.routes.map((r) => r.id))
      const winner = entries.find((entry) => entry.matched && entry.shadowedBy === undefined)
      await turn(session, history, text)
      const trace = session.traces().at(-1)
      expect({ text, state, route: trace?.routeId }).toEqual({ text, state, route: winner?.routeId })
    }
    expect(session.getSnapshot().state).toBe('greeting')
  })

  it('sees the session context: a guard that reads it passes once the context says so', async () => {
    const refused = createChatSession(lostCard, { lint: false, start: { state: 'confirm' } })
    expect((await refused.explain('yes')).find((entry) => entry.routeId === 'yes')?.reason).toBe('guard')
    const verified = createChatSession(lostCard, { lint: false, start: { state: 'confirm', context: { verified: true } } })
    expect((await verified.explain('yes')).find((entry) => entry.routeId === 'yes')?.reason).toBe('matched')
  })

  it('names a route that refuses (its guard with a `refuse`, or its transition) as the one that takes the input, as the turn does', async () => {
    const refusing = (transitionGuard: boolean) =>
      defineChat<{ verified?: boolean }>({
        id: 'refusing',
        chat: {},
        conversation: {
          initial: 'idle',
          context: {},
          states: { idle: { on: { refund: { target: 'refunded', guard: () => !transitionGuard }, other: 'idle' } }, refunded: {} },
          routes: [
            transitionGuard
              ? textRoute({ id: 'A', texts: ['refund'], event: 'refund', response: 'Refunded.' })
              : textRoute({ id: 'A', texts: ['refund'], event: 'refund', guard: (ctx) => ctx.context.verified === true, refuse: 'Verify first.', response: 'Refunded.' }),
            textRoute({ id: 'B', texts: ['refund'], event: 'other', response: 'B answers.' }),
          ],
          fallback: { response: 'Sorry?' },
        },
      })
    for (const [transitionGuard, outcome, detail] of [
      [false, 'refused', 'its guard returned false, so it answers its re-prompt (`refuse`)'],
      [true, 'error', 'the transition\'s guard refused "refund" (guard-refused), so the turn fails (transition refused)'],
    ] as const) {
      const session = createChatSession(refusing(transitionGuard), { lint: false })
      const entries = await session.explain('refund')
      await turn(session, [], 'refund')
      expect(session.traces().at(-1)).toMatchObject({ routeId: 'A', outcome })
      expect(entries).toEqual([
        { routeId: 'A', matched: true, reason: 'guard', detail },
        { routeId: 'B', matched: true, reason: 'matched', detail: 'fires "other" → "idle"', shadowedBy: 'A' },
      ])
      const winner = entries.find((entry) => entry.matched && entry.shadowedBy === undefined)
      expect(winner?.routeId).toBe(session.traces().at(-1)?.routeId)
    }
  })
})

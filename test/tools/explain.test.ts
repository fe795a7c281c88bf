import { describe, expect, it } from 'vitest'
import { formatExplanation } from '../../src/conversation/explain.js'
import { explainRoutes } from '../../src/conversation/explain-turn.js'
import { defineChat, route } from '../../src/index.js'
import { lostCard } from './fixtures/lost-card.js'

/** `explainRoutes` (what `session.explain` and `chatrail explain` print): one entry per route, in order, with the first reason that rules it out. */

const reasons = async (state: string, input: Parameters<typeof explainRoutes>[2], context: Record<string, unknown> = {}) =>
  (await explainRoutes(lostCard, { state, context }, input)).map((entry) => `${entry.routeId}:${entry.reason}${entry.shadowedBy === undefined ? '' : `<${entry.shadowedBy}`}`)

describe('explainRoutes', () => {
  it('gives every route in declaration order its reason: state, event, no-match, guard or matched', async () => {
    expect(await reasons('greeting', '/start')).toEqual([
      'faq-fees:no-match',
      'start:matched',
      'last4:state',
      'yes:event',
      'yes-button:event',
      'vip:event',
      'help:no-match',
      'cancel:no-match',
      'again:state',
      'anything:state',
    ])
  })

  it('reports a refused route guard and a refused transition guard as `guard`, with the detail', async () => {
    const entries = await explainRoutes(lostCard, { state: 'confirm', context: { verified: false } }, 'yes vip')
    const vip = entries.find((entry) => entry.routeId === 'vip')
    expect(vip).toMatchObject({ matched: false, reason: 'guard', detail: 'its guard returned false' })
    const yes = await explainRoutes(lostCard, { state: 'confirm', context: { verified: false } }, 'yes')
    // The turn stops at a refused transition (it fails there): the route takes the input, later matches are shadowed by it.
    expect(yes.find((entry) => entry.routeId === 'yes')).toMatchObject({ matched: true, reason: 'guard', detail: 'the transition\'s guard refused "confirm" (guard-refused), so the turn fails (transition refused)' })
    expect(yes.find((entry) => entry.routeId === 'anything')).toMatchObject({ matched: true, shadowedBy: 'yes' })
    const verified = await explainRoutes(lostCard, { state: 'confirm', context: { verified: true } }, 'yes')
    expect(verified.find((entry) => entry.routeId === 'yes')).toMatchObject({ matched: true, reason: 'matched', detail: 'fires "confirm" → "done"' })
  })

  it('marks later matches as shadowed by the route that takes the input first', async () => {
    expect(await reasons('confirm', 'yes', { verified: true })).toContain('anything:matched<yes')
  })

  it('explains reply-only routes (no event) in every state, final ones included, and restarts where they are allowed', async () => {
    expect(await reasons('done', 'fees')).toContain('faq-fees:matched')
    const again = await explainRoutes(lostCard, { state: 'cancelled', context: {} }, '/again')
    expect(again.find((entry) => entry.routeId === 'again')).toMatchObject({ matched: true, detail: 'starts over' })
    expect((await explainRoutes(lostCard, { state: 'done', context: {} }, 'fees'))[0]?.detail).toBe('answers without a transition')
  })

  it('treats conversation-level `on` as declared in every non-final state that does not opt out', async () => {
    expect(await reasons('identify', '/help')).toContain('help:matched')
    expect(await reasons('confirm', '/help')).toContain('help:event')
    expect(await reasons('done', '/cancel')).toContain('cancel:event')
  })

  it('explains a UI event: only event and custom routes can take it', async () => {
    const entries = await reasons('confirm', { uiEvent: 'confirm' }, { verified: true })
    expect(entries).toContain('yes-button:matched')
    expect(entries).toContain('yes:no-match')
  })

  it('formats one line per route under a heading that says who answers', async () => {
    const entries = await explainRoutes(lostCard, { state: 'greeting', context: {} }, 'hello')
    const text = formatExplanation(entries, 'greeting', 'hello')
    expect(text.split('\n')[0]).toBe('"hello" in state "greeting": no route matched')
    expect(text).toContain('  · start       no-match  the command is "/start"')
    expect(text).toContain('  · last4       state     fires only in "identify"')
  })

  it('bounds an async match by its routeTimeoutMs (the definition default): it reports no-match, timed out, and goes on', async () => {
    const def = defineChat({
      id: 'slow',
      chat: {},
      conversation: {
        initial: 'idle',
        routeTimeoutMs: 30,
        states: { idle: {} },
        routes: [route({ id: 'slow', match: () => new Promise<boolean>(() => {}), response: 'never' }), route({ id: 'fast', match: () => true, response: 'yes' })],
        fallback: { response: 'Sorry?' },
      },
    })
    const explaining = explainRoutes(def, { state: 'idle', context: {} }, 'hi')
    const hung = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('explain still pending after 2 s')), 2000))
    expect(await Promise.race([explaining, hung])).toEqual([
      { routeId: 'slow', matched: false, reason: 'no-match', detail: 'its match function timed out (routeTimeoutMs 30)' },
      { routeId: 'fast', matched: true, reason: 'matched', detail: 'answers without a transition' },
    ])
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import type { ExplainedKind, ExplainInput } from '../../src/conversation/explain.js'
import { createChatSession, type TurnTrace } from '../../src/index.js'
import { formBot, type FormBotContext } from './fixtures/form-bot.js'

/**
 * Issue 27 item 1: `session.explainTurn` predicts the turn the session then takes, for random
 * messages in random states and contexts of a definition with a form, refusals, a restart and a
 * stale UI event. Explaining used to say "no route matched" (the agent answers) where the turn
 * was a form turn; now it is the session's own decision code, so kind, route, event, target state,
 * trace outcome and reason agree.
 */

/** The kind of turn a trace records, in explain's words. */
function kindOf(trace: TurnTrace): ExplainedKind {
  if (trace.outcome === 'timeout' || trace.outcome === 'error' || trace.outcome === 'unavailable') return trace.outcome
  switch (trace.reason) {
    case 'slot-filled':
    case 'form-complete':
    case 'form-exhausted':
    case 'invalid-slot':
    case 'restart':
      return trace.reason
  }
  if (trace.outcome === 'refused') return 'refused'
  return trace.routeId === undefined ? 'agent' : 'route'
}

const states = Object.keys(formBot.conversation.states)
const texts = ['/help', '/start', '/cancel', 'yes', 'verify', 'vip please', 'force', 'change', '/resolve', '/again', '1234', '12', 'ab1 2cd', 'AB12CD', 'hello', ' ', '4321 ']
const input: fc.Arbitrary<ExplainInput> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...texts) },
  { weight: 1, arbitrary: fc.constantFrom<ExplainInput>({ uiEvent: 'confirm', text: 'Confirm' }, { uiEvent: 'unknown' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
)
const context: fc.Arbitrary<FormBotContext & { formAttempts?: number }> = fc.record(
  { digits: fc.constant('1234'), postcode: fc.constant('AB1 2CD'), verified: fc.boolean(), formAttempts: fc.integer({ min: 1, max: 2 }) },
  { requiredKeys: [] },
)

let ids = 0
function message(value: ExplainInput): Message {
  const base = { id: `m${++ids}`, role: 'user' as const, status: 'complete' as const, createdAt: new Date(0) }
  return typeof value === 'string' ? { ...base, content: value } : { ...base, content: value.text ?? value.uiEvent, metadata: { chatrail: { event: value.uiEvent } } }
}

describe('explainTurn predicts the turn the session takes', () => {
  it('for random messages, states and contexts', async () => {
    const seen = new Set<ExplainedKind>()
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...states), context, input, async (state, start, value) => {
        const session = createChatSession(formBot, { lint: false, start: { state, context: start } })
        const { outcome } = await session.explainTurn(value)
        for await (const _chunk of session.chat.adapter.createSource({ messages: [message(value)] }).stream()) void _chunk
        const trace = session.traces().at(-1) as TurnTrace
        seen.add(outcome.kind)
        expect({ kind: outcome.kind, routeId: outcome.routeId, event: outcome.event, toState: outcome.toState, outcome: outcome.outcome ?? trace.outcome, reason: outcome.reason }).toEqual({
          kind: kindOf(trace),
          routeId: trace.routeId,
          event: trace.event,
          toState: trace.toState,
          outcome: trace.outcome,
          reason: trace.reason,
        })
        expect(session.getSnapshot().state).toBe(outcome.toState)
      }),
      { numRuns: 400, seed: 27 },
    )
    // The runs met every kind this definition can produce (so the property was not vacuous).
    expect([...seen].sort()).toEqual(['agent', 'error', 'form-complete', 'form-exhausted', 'invalid-slot', 'refused', 'restart', 'route', 'slot-filled', 'unavailable'])
  })
})

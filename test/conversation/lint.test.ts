import { describe, expect, it } from 'vitest'
import { defineChat } from '../../src/conversation/define-chat.js'
import type { ChatDefinitionInput } from '../../src/conversation/definition.js'
import { lintDefinition } from '../../src/conversation/lint.js'
import { commandRoute, patternRoute, route, textRoute, type Route } from '../../src/conversation/routes.js'
import { scaling } from './scaling.js'

/**
 * The lint's shadowing rules (issue 19 item 5) and its cost (issue 20: linear, not the O(N²)
 * pairwise scan that took 18–26 s for 10,000 routes). The warning kinds that predate these live in
 * definition.test.ts.
 */

function definition(routes: Route[], extra: Partial<ChatDefinitionInput['conversation']> = {}) {
  return defineChat({
    id: 'lint-shadow',
    chat: {},
    conversation: {
      initial: 'idle',
      states: { idle: { on: { go: 'busy', ask: 'idle' } }, busy: { on: { go: 'idle', ask: 'busy' } } },
      fallback: { response: 'fallback' },
      routes,
      ...extra,
    },
  })
}

const codes = (routes: Route[], extra?: Partial<ChatDefinitionInput['conversation']>) => lintDefinition(definition(routes, extra)).map((w) => `${w.code}@${w.path.join('.')}`)

describe('lint: routes shadowed by an earlier pattern', () => {
  it('reports a command behind a catch-all /.*/ with the pattern and the input it takes', () => {
    const warnings = lintDefinition(definition([
      patternRoute({ id: 'anything', pattern: /.*/, event: 'ask', response: 'a' }),
      commandRoute({ id: 'help', command: '/help', event: 'ask', response: 'b' }),
    ]))
    expect(warnings.map((w) => w.code)).toEqual(['shadowed_route'])
    expect(warnings[0]?.path).toEqual(['conversation', 'routes', 1])
    expect(warnings[0]?.message).toBe('Route "help" is shadowed by the earlier route "anything" in states "idle", "busy", whose pattern /.*/ matches "/help".')
    expect(warnings[0]?.hint).toContain('Move "help" before "anything"')
  })

  it('reports a text route when any pattern (not only a catch-all) matches one of its texts', () => {
    expect(codes([
      patternRoute({ id: 'greeting', pattern: /^(hi|hello)\b/i, event: 'ask', response: 'a' }),
      textRoute({ id: 'hello-there', texts: ['good day', 'Hello there'], event: 'ask', response: 'b' }),
      textRoute({ id: 'bye', text: 'bye', event: 'ask', response: 'c' }),
    ])).toEqual(['shadowed_route@conversation.routes.1'])
  })

  it('stays quiet for a guarded pattern, a pattern in other states, a later pattern and a pattern that does not match', () => {
    expect(codes([
      patternRoute({ id: 'guarded', pattern: /.*/, event: 'ask', guard: () => false, response: 'a' }),
      patternRoute({ id: 'busy-only', pattern: /.*/, event: 'ask', states: ['busy'], response: 'a' }),
      patternRoute({ id: 'digits', pattern: /^\d+$/, event: 'ask', response: 'a' }),
      commandRoute({ id: 'help', command: '/help', event: 'ask', states: ['idle'], response: 'b' }),
      textRoute({ id: 'hi', text: 'hi', event: 'ask', states: ['idle'], response: 'c' }),
      patternRoute({ id: 'late', pattern: /.*/, event: 'ask', response: 'a' }),
    ])).toEqual([])
  })

  it('names the earliest shadowing route, whether an exact route or a pattern came first', () => {
    const byPattern = lintDefinition(definition([
      patternRoute({ id: 'anything', pattern: /.*/, event: 'ask', response: 'a' }),
      commandRoute({ id: 'help', command: '/help', event: 'ask', response: 'b' }),
      commandRoute({ id: 'help-again', command: '/help', event: 'ask', response: 'c' }),
    ]))
    expect(byPattern.map((w) => w.message.match(/earlier route "([^"]+)"/)?.[1])).toEqual(['anything', 'anything'])
    const byCommand = lintDefinition(definition([
      commandRoute({ id: 'help', command: '/help', event: 'ask', response: 'b' }),
      patternRoute({ id: 'anything', pattern: /.*/, event: 'ask', response: 'a' }),
      commandRoute({ id: 'help-again', command: '/help', event: 'ask', response: 'c' }),
    ]))
    expect(byCommand.map((w) => w.message)).toEqual(['Route "help-again" is shadowed by the earlier route "help" in states "idle", "busy".'])
  })

  it('never reports custom routes (their match is code) nor shadows by one', () => {
    expect(codes([
      route({ id: 'custom', match: () => true, event: 'ask', response: 'a' }),
      commandRoute({ id: 'help', command: '/help', event: 'ask', response: 'b' }),
    ])).toEqual([])
  })

  it('compares commands in the matching mode of the earlier route (case-insensitive, untrimmed)', () => {
    expect(codes([
      commandRoute({ id: 'loose', command: '/HELP', caseSensitive: false, event: 'ask', response: 'a' }),
      commandRoute({ id: 'strict', command: '/help', event: 'ask', response: 'b' }),
      commandRoute({ id: 'other', command: '/helps', event: 'ask', response: 'c' }),
    ])).toEqual(['shadowed_route@conversation.routes.1'])
  })
})

describe('lint: reply-only routes and conversation-level transitions', () => {
  it('does not warn for a reply-only route in a final state, nor for the final state answering it', () => {
    const warnings = codes(
      [
        commandRoute({ id: 'finish', command: '/finish', event: 'finish', response: 'done' }),
        commandRoute({ id: 'help', command: '/help', response: 'Say /finish.' }),
        commandRoute({ id: 'closed-help', command: '/status', states: ['closed'], response: 'This case is closed.' }),
      ],
      { states: { idle: { on: { finish: 'closed' } }, closed: { final: true } } },
    )
    expect(warnings).toEqual([])
  })

  it('counts conversation-level transitions as exits and as paths into states', () => {
    const warnings = codes(
      [commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: 'Cancelled.' })],
      { on: { cancel: 'cancelled' }, states: { idle: {}, cancelled: { final: true } } },
    )
    expect(warnings).toEqual([])
  })

  it('a state that opts out of the conversation-level `on` is a dead end again, and the route is dead', () => {
    const warnings = codes(
      [commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', states: ['idle'], response: 'Cancelled.' })],
      { on: { cancel: 'cancelled' }, states: { idle: { ignoreGlobal: true }, cancelled: { final: true } } },
    )
    expect(warnings).toEqual(['dead_end_state@conversation.states.idle', 'unreachable_state@conversation.states.cancelled', 'dead_route@conversation.routes.0.event'])
  })
})

describe('lint cost (issue 20)', () => {
  /** `n` routes across kinds, the way a large definition mixes them, with a few early patterns. */
  function large(n: number) {
    const routes: Route[] = [
      patternRoute({ id: 'order', pattern: /^order (?<id>\d+)$/, event: 'ask', response: 'o' }),
      patternRoute({ id: 'refund', pattern: /refund/i, event: 'ask', response: 'r' }),
    ]
    for (let i = 0; i < n; i++) {
      if (i % 3 === 0) routes.push(textRoute({ id: `t${i}`, texts: [`question ${i}`, `q${i}`], event: 'ask', response: 't' }))
      else routes.push(commandRoute({ id: `c${i}`, command: `/cmd${i}`, event: i % 2 === 0 ? 'go' : 'ask', response: 'c' }))
    }
    return definition(routes)
  }

  it('grows linearly: 20,000 routes cost what a linear pass over them does, not 20× more', () => {
    const small = large(1_000)
    const big = large(20_000)
    expect(lintDefinition(big)).toEqual([])
    const ids = (def: typeof big) => new Map(def.conversation.routes.map((r) => [r.id, r.states]))
    const { ratio, bound } = scaling(small, big, lintDefinition, ids)
    // The pairwise lint: 18–26 s for 10,000 routes, ~400× the time for 1,000 at 20,000.
    expect(ratio).toBeLessThan(bound)
  })
})

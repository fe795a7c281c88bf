import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateDefinition } from '../../src/conversation/definition-schema.js'
import { routesCertainlyValid } from '../../src/conversation/route-shape.js'
import { commandRoute, eventRoute, patternRoute, route, textRoute } from '../../src/conversation/routes.js'
import { scaling } from './scaling.js'

/**
 * The hand-written route check that lets `defineChat` skip zod for constructor-made routes (issue
 * 20) may only ever say "valid" for routes the schema accepts. Checked against the schema itself:
 * a second route whose prototype carries an enumerable key fails the quick check (the schema only
 * reads own keys), so the whole table goes through zod, and zod's verdict on the first route is
 * compared with the quick one.
 */

const bases = [
  commandRoute({ id: 'c', command: '/c', event: 'go', response: 'ok' }),
  textRoute({ id: 't', texts: ['hi'], event: 'go', response: { text: 'hi', assign: { a: 1 } } }),
  patternRoute({ id: 'p', pattern: /x/, assign: true, event: 'go', states: ['s'], response: () => 'x' }),
  route({ id: 'u', match: () => true, guard: () => true, event: 'go', response: { chunks: [{ type: 'text' }] }, traceKind: 'repaired' }),
  eventRoute({ id: 'e', uiEvent: 'click', response: 'ok', description: 'd', refuse: 'no', routeTimeoutMs: 5 }),
]

const values = fc.constantFrom<unknown>(undefined, null, '', 'x', 0, 1.5, -1, 7, 2 ** 60, Infinity, true, false, [], ['a'], [1], {}, { text: 1 }, { text: 'a', extra: 1 }, { type: 'text' }, /re/, () => true, new Date(0), new Map())
const keys = fc.constantFrom('id', 'event', 'states', 'guard', 'response', 'refuse', 'restart', 'routeTimeoutMs', 'traceKind', 'description', 'kind', 'command', 'caseSensitive', 'trim', 'texts', 'pattern', 'assign', 'match', 'uiEvent', 'respones', 'extra')

const forcer = Object.assign(Object.create({ inherited: true }) as object, commandRoute({ id: 'forcer', command: '/f', event: 'go', response: 'ok' }))

function schemaAccepts(candidate: unknown): boolean {
  const issues = validateDefinition({ id: 'd', chat: {}, conversation: { initial: 's', states: { s: { on: { go: 's' } } }, fallback: { response: 'x' }, routes: [candidate, forcer] } })
  return !issues.some((issue) => issue.path[1] === 'routes' && issue.path[2] === 0 && issue.code !== 'invalid_identifier' && issue.code !== 'unknown_route_state')
}

describe('routesCertainlyValid', () => {
  it('accepts the constructors\' routes, which the schema accepts too', () => {
    expect(routesCertainlyValid(bases)).toBe(true)
    expect(routesCertainlyValid([bases[0], forcer])).toBe(false)
    for (const base of bases) expect(schemaAccepts(base)).toBe(true)
  })

  it('never says valid when the schema would not (random edits of valid routes)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(fc.tuple(keys, values, fc.boolean()), { minLength: 1, maxLength: 3 }), (base, edits) => {
        const candidate: Record<string, unknown> = { ...base }
        for (const [key, value, remove] of edits) {
          if (remove) delete candidate[key]
          else candidate[key] = value
        }
        if (routesCertainlyValid([candidate])) expect(schemaAccepts(candidate)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('leaves an unsafe integer timeout to the schema, which rejects it (z.int() takes safe integers only)', () => {
    const slow = commandRoute({ id: 'c', command: '/c', response: 'ok', routeTimeoutMs: 2 ** 60 })
    expect(routesCertainlyValid([slow])).toBe(false)
    expect(schemaAccepts(slow)).toBe(false)
    expect(routesCertainlyValid([commandRoute({ id: 'c', command: '/c', response: 'ok', routeTimeoutMs: Number.MAX_SAFE_INTEGER })])).toBe(true)
  })

  it('says no to anything but an array', () => {
    expect(routesCertainlyValid(undefined)).toBe(false)
    expect(routesCertainlyValid({ 0: bases[0] })).toBe(false)
  })
})

describe('validation cost (issue 20)', () => {
  const input = (n: number) => ({
    id: 'big',
    chat: {},
    conversation: {
      initial: 's',
      states: { s: { on: { go: 's' } } },
      fallback: { response: 'x' },
      routes: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? commandRoute({ id: `c${i}`, command: `/c${i}`, event: 'go', response: 'ok' }) : textRoute({ id: `t${i}`, texts: [`t ${i}`], event: 'go', response: { text: 'ok' } }))),
    },
  })
  it('grows linearly and takes the quick path for constructor-made routes', () => {
    const small = input(1_000)
    const big = input(20_000)
    expect(routesCertainlyValid(big.conversation.routes)).toBe(true)
    expect(validateDefinition(big)).toEqual([])
    const ids = (value: typeof big) => new Map(value.conversation.routes.map((r) => [r.id, r.event]))
    const { ratio, bound } = scaling(small, big, validateDefinition, ids)
    expect(ratio).toBeLessThan(bound)
  })
})

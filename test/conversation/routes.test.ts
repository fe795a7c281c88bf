import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { buildRouteIndex } from '../../src/conversation/route-index.js'
import { commandKey, textKey } from '../../src/conversation/normalize.js'
import {
  commandRoute,
  createChatSession,
  defineChat,
  eventRoute,
  patternRoute,
  route,
  textRoute,
  uiEventMessageMetadata,
  type Route,
  type RouteContext,
} from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { assistant, textOf, turn, user } from './helpers.js'

type Ctx = { order?: string; name?: string }

function session(routes: Route<Ctx>[], extra: { states?: Record<string, { on?: Record<string, string> }> } = {}) {
  const model = scriptedAdapter(['agent'])
  const def = defineChat<Ctx>({
    id: 'routes',
    chat: { adapter: model },
    conversation: { initial: 'a', states: extra.states ?? { a: { on: { go: 'a', next: 'b' } }, b: { on: { go: 'a' } } }, context: {}, routes },
  })
  return { s: createChatSession(def, { sessionId: 'sess', ids: () => 'turn-1', lint: false }), model }
}

describe('route matching', () => {
  it('textRoute equality is NFKC + trim + collapsed whitespace + lowercase', async () => {
    const { s, model } = session([textRoute({ id: 't', texts: ['hello there'], event: 'go', response: 'matched' })])
    for (const input of ['  HELLO   there ', 'ｈｅｌｌｏ\tthere', 'Hello\nThere']) expect(textOf(await turn(s.chat.adapter, [user(input)]))).toBe('matched')
    await turn(s.chat.adapter, [user('hello there!')])
    expect(model.calls).toHaveLength(1)
    expect(textKey('Ａ  b')).toBe('a b')
  })

  it('commandRoute is exact, trimmed and case-sensitive by default; both are configurable', async () => {
    const { s, model } = session([
      commandRoute({ id: 'exact', command: '/Start', event: 'go', response: 'exact' }),
      commandRoute({ id: 'loose', command: '/help', event: 'go', response: 'loose', caseSensitive: false }),
      commandRoute({ id: 'raw', command: ' /pad', event: 'go', response: 'raw', trim: false }),
    ])
    expect(textOf(await turn(s.chat.adapter, [user('  /Start ')]))).toBe('exact')
    expect(textOf(await turn(s.chat.adapter, [user('/HELP')]))).toBe('loose')
    expect(textOf(await turn(s.chat.adapter, [user(' /pad')]))).toBe('raw')
    await turn(s.chat.adapter, [user('/start')])
    await turn(s.chat.adapter, [user('/pad')])
    expect(model.calls).toHaveLength(2)
    expect(commandKey(' /A ', { caseSensitive: false, trim: true })).toBe('/a')
  })

  it('patternRoute passes named groups to the response and assigns them; g/y flags cannot leak state', async () => {
    const { s } = session([
      patternRoute({ id: 'order', pattern: /order (?<order>\d+)/gi, event: 'go', assign: true, response: (_input, ctx) => `got ${ctx.match?.groups.order} at ${ctx.match?.index}` }),
      patternRoute({ id: 'name', pattern: /^name (?<first>\w+)$/, event: 'next', assign: (groups) => ({ name: groups.first?.toUpperCase() }), response: 'named' }),
    ])
    const m1 = user('my order 42')
    expect(textOf(await turn(s.chat.adapter, [m1]))).toBe('got 42 at 3')
    expect(s.getSnapshot().context).toEqual({ order: '42' })
    const m2 = user('order 43')
    expect(textOf(await turn(s.chat.adapter, [m1, assistant('x'), m2]))).toBe('got 43 at 0')
    await turn(s.chat.adapter, [m1, assistant('x'), m2, assistant('y'), user('name ada')])
    expect(s.getSnapshot()).toMatchObject({ state: 'b', context: { order: '43', name: 'ADA' } })
  })

  it('route() may be async and sees a read-only context with ids and history', async () => {
    const seen: RouteContext<Ctx>[] = []
    const match = vi.fn(async (input: string, ctx: RouteContext<Ctx>) => {
      seen.push(ctx)
      await Promise.resolve()
      return input.endsWith('?')
    })
    const { s } = session([route<Ctx>({ id: 'q', event: 'go', match, response: async (_i, ctx) => ({ text: `answer for ${ctx.messageId}` }) })])
    const history = [user('why?', 'q1')]
    expect(textOf(await turn(s.chat.adapter, history))).toBe('answer for q1')
    expect(seen[0]).toMatchObject({ input: 'why?', state: 'a', sessionId: 'sess', messageId: 'q1', turnId: 'turn-1', uiEvent: undefined })
    expect(seen[0]?.history).toBe(history)
    expect(Object.isFrozen(seen[0]?.context)).toBe(true)
  })

  it('a route guard sees the match; false falls through to the next route', async () => {
    const guard = vi.fn((ctx: RouteContext<Ctx>) => ctx.match?.groups.n === '1')
    const { s } = session([
      patternRoute({ id: 'one', pattern: /^(?<n>\d)$/, event: 'go', guard, response: 'one' }),
      patternRoute({ id: 'any', pattern: /^\d$/, event: 'go', response: 'any' }),
    ])
    expect(textOf(await turn(s.chat.adapter, [user('1')]))).toBe('one')
    expect(textOf(await turn(s.chat.adapter, [user('2')]))).toBe('any')
    expect(guard).toHaveBeenCalledTimes(2)
  })

  it('eventRoute matches only messages carrying the UI event; typed text never forges it', async () => {
    const { s, model } = session([eventRoute({ id: 'yes', uiEvent: 'confirm', event: 'go', response: (_i, ctx) => `clicked ${ctx.uiEvent}` })])
    expect(textOf(await turn(s.chat.adapter, [user('Yes please', 'e1', uiEventMessageMetadata('confirm'))]))).toBe('clicked confirm')
    await turn(s.chat.adapter, [user('confirm')])
    expect(model.calls).toHaveLength(1)
  })

  it('a UI-event message is not matched by text or command routes (only by event and custom routes)', async () => {
    const { s, model } = session([commandRoute({ id: 'c', command: 'confirm', event: 'go', response: 'typed' })])
    await turn(s.chat.adapter, [user('confirm', 'e2', uiEventMessageMetadata('confirm'))])
    expect(model.calls).toHaveLength(1)
  })

  it('route output may carry chunks (components) and is replayed identically', async () => {
    const payload = { id: 'choice-1', name: 'choice_list', args: '{"options":["a","b"]}' }
    const { s } = session([commandRoute({ id: 'pick', command: '/pick', event: 'go', response: { text: 'Pick one', chunks: [{ type: 'tool_call', toolCall: payload }] } })])
    const m = user('/pick')
    const first = await turn(s.chat.adapter, [m])
    expect(first.map((c) => c.type)).toEqual(['text', 'tool_call', 'done'])
    expect(await turn(s.chat.adapter, [m])).toEqual(first)
  })

  it('an output with done/error chunks or foreign keys is a route error', async () => {
    const { s } = session([
      commandRoute({ id: 'bad', command: '/bad', event: 'go', response: { chunks: [{ type: 'done' }] } }),
      commandRoute({ id: 'bad2', command: '/bad2', event: 'go', response: () => ({ txt: 'typo' }) as never }),
    ])
    expect((await turn(s.chat.adapter, [user('/bad')]))[0]?.type).toBe('error')
    expect((await turn(s.chat.adapter, [user('/bad2')]))[0]?.type).toBe('error')
    expect(s.traces().map((t) => t.reason)).toEqual(['invalid-output', 'invalid-output'])
  })
})

describe('route index', () => {
  it('resolves like a linear scan in declaration order, for any table and input (property)', () => {
    const word = fc.constantFrom('/a', '/b', 'hi', 'Hi ', 'x', '/A')
    const arbRoute = fc.oneof(
      fc.record({ kind: fc.constant('command' as const), key: word, caseSensitive: fc.boolean(), trim: fc.boolean() }),
      fc.record({ kind: fc.constant('text' as const), key: word }),
      fc.record({ kind: fc.constant('pattern' as const), key: word }),
      fc.record({ kind: fc.constant('event' as const), key: fc.constantFrom('ok', 'no') }),
    )
    fc.assert(
      fc.property(fc.array(arbRoute, { maxLength: 12 }), word, fc.option(fc.constantFrom('ok', 'no'), { nil: undefined }), (specs, input, uiEvent) => {
        const routes: Route[] = specs.map((spec, i) => {
          const common = { id: `r${i}`, event: 'go', response: 'x' }
          if (spec.kind === 'command') return commandRoute({ ...common, command: spec.key.trim() === '' ? '/z' : spec.key, caseSensitive: spec.caseSensitive, trim: spec.trim })
          if (spec.kind === 'text') return textRoute({ ...common, text: spec.key })
          if (spec.kind === 'pattern') return patternRoute({ ...common, pattern: new RegExp(`^${spec.key.replace('/', '\\/')}$`) })
          return eventRoute({ ...common, uiEvent: spec.key })
        })
        const naive = routes.findIndex((r) => {
          if (uiEvent !== undefined) return r.kind === 'event' && r.uiEvent === uiEvent
          if (r.kind === 'command') return commandKey(input, r) === commandKey(r.command, r)
          if (r.kind === 'text') return r.texts.some((t) => textKey(t) === textKey(input))
          if (r.kind === 'pattern') return r.pattern.test(input)
          return false
        })
        const index = buildRouteIndex(routes)
        const first = index.candidates(input, uiEvent).find((p) => {
          const r = routes[p]
          return r?.kind === 'pattern' ? r.pattern.test(input) : true
        })
        expect(first ?? -1).toBe(naive)
      }),
    )
  })

  it('rules a message out by its first character only when no key can match it (property)', () => {
    // Units that trimming, case folding and NFKC treat specially: ASCII space and tab, upper case,
    // a combining acute (e + U+0301 composes to é), the Kelvin sign and dotted İ (which lowercase to
    // ASCII), full-width letters (NFKC maps them to ASCII) and a no-break space (trimmed, not ASCII).
    const unit = fc.constantFrom('/', 'a', 'A', 'h', 'H', 'i', 'k', ' ', '\t', '\u0301', 'e', 'é', '\u212A', 'İ', 'Ｈ', '\u00A0')
    const text = fc.array(unit, { minLength: 1, maxLength: 4 }).map((units) => units.join(''))
    fc.assert(
      fc.property(fc.array(fc.record({ text: fc.boolean(), key: text, caseSensitive: fc.boolean(), trim: fc.boolean() }), { minLength: 1, maxLength: 6 }), text, (specs, input) => {
        const routes: Route[] = specs.map((spec, i) => {
          const common = { id: `r${i}`, event: 'go', response: 'x' }
          const key = spec.key.trim() === '' ? 'z' : spec.key
          return spec.text ? textRoute({ ...common, text: key }) : commandRoute({ ...common, command: key, caseSensitive: spec.caseSensitive, trim: spec.trim })
        })
        const matching = routes.flatMap((r, p) => {
          const matches = r.kind === 'command' ? commandKey(input, r) === commandKey(r.command, r) : r.kind === 'text' && r.texts.some((t) => textKey(t) === textKey(input))
          return matches ? [p] : []
        })
        expect(buildRouteIndex(routes).candidates(input, undefined)).toEqual(matching)
      }),
      { numRuns: 2000 },
    )
  })
})

import { describe, expectTypeOf, it } from 'vitest'
import {
  commandRoute,
  createChatSession,
  defineChat,
  patternRoute,
  type ChatDefinition,
  type ChatSession,
  type RouteContext,
  type SessionSnapshot,
  type TurnTrace,
} from '../../src/index.js'
import { createSupportBot, supportBot, type SupportContext } from '../../examples/support-bot/definition.js'

const adapter = { createSource: () => ({ stream: async function* () {}, abort: () => undefined }) }
type Ctx = { order?: string; count: number }

describe('conversation types', () => {
  it('defineChat carries the context type to routes, sessions and snapshots', () => {
    const def = defineChat<Ctx>({
      id: 't',
      chat: { adapter },
      conversation: {
        initial: 'a',
        context: { count: 0 },
        states: { a: { on: { go: 'a' } } },
        routes: [
          patternRoute<Ctx>({
            id: 'p',
            pattern: /(?<order>\d+)/,
            event: 'go',
            response: (_input, ctx) => {
              expectTypeOf(ctx).toEqualTypeOf<RouteContext<Ctx>>()
              expectTypeOf(ctx.context.count).toEqualTypeOf<number>()
              return { text: 'ok', assign: { order: ctx.match?.groups.order } }
            },
          }),
        ],
      },
    })
    expectTypeOf(def).toEqualTypeOf<ChatDefinition<Ctx>>()
    const session = createChatSession(def)
    expectTypeOf(session).toEqualTypeOf<ChatSession<Ctx>>()
    expectTypeOf(session.getSnapshot()).toEqualTypeOf<SessionSnapshot<Ctx>>()
    expectTypeOf(session.getSnapshot().context.order).toEqualTypeOf<string | undefined>()
    expectTypeOf(session.traces()).toEqualTypeOf<readonly TurnTrace[]>()
  })

  it('a typed definition is assignable where any definition is accepted (renderers, testing kit)', () => {
    expectTypeOf(supportBot).toMatchTypeOf<ChatDefinition>()
    expectTypeOf(createSupportBot).returns.toEqualTypeOf<ChatDefinition<SupportContext>>()
  })

  it('assign is checked against the context', () => {
    commandRoute<Ctx>({ id: 'c', command: '/c', event: 'go', response: { assign: { count: 1 } } })
    // @ts-expect-error count is a number
    commandRoute<Ctx>({ id: 'c', command: '/c', event: 'go', response: { assign: { count: 'one' } } })
    // @ts-expect-error a route needs a response
    commandRoute<Ctx>({ id: 'c', command: '/c', event: 'go' })
  })
})

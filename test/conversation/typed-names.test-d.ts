import { describe, expectTypeOf, it } from 'vitest'
import {
  commandRoute,
  createChatSession,
  defineChat,
  eventRoute,
  patternRoute,
  route,
  sendUiEvent,
  textRoute,
  type ChatDefinition,
  type EventName,
  type StateName,
  type UiEventName,
} from '../../src/index.js'
import { createChatController } from '../../src/controller/index.js'
import { runConversation } from '../../src/testing/index.js'

/**
 * Typo probes for issue 19 item 4 ("names the compiler checks"): every `@ts-expect-error` below
 * sits on a misspelt state, event or UI-event name (or a wrongly typed `assign`), and `npm run
 * typecheck` fails if any of them compiles. Probes 1–12 are the issue's; the rest cover the
 * conversation-level `on`, forms and routes built outside the literal.
 */

type Ctx = { orderNumber?: string; count: number }

const fallback = { response: 'Sorry.' }

// Names are inferred from the literal: no type arguments.
const orders = defineChat({
  id: 'orders',
  chat: {},
  conversation: {
    initial: 'idle',
    states: {
      idle: { on: { start: 'asking', help: 'idle' } },
      asking: { on: { order: 'done', cancel: { target: 'idle' } } },
      done: { final: true },
    },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Your order number?' }),
      textRoute({ id: 'help', text: 'help', event: 'help', states: ['idle'], response: 'Type /start.' }),
      eventRoute({ id: 'confirm', uiEvent: 'confirm', event: 'order', response: 'Done.' }),
    ],
    fallback,
  },
})

// With a context type: `defineChat<Ctx>()(…)` (TypeScript cannot infer names next to an explicit `<Ctx>`).
const typedContext = defineChat<Ctx>()({
  id: 'typed-context',
  chat: {},
  conversation: {
    initial: 'idle',
    context: { count: 0 },
    states: { idle: { on: { go: 'idle' } } },
    routes: [
      patternRoute({ id: 'order', pattern: /(?<orderNumber>\d+)/, event: 'go', assign: true, response: (_input, ctx) => `#${ctx.match?.groups.orderNumber ?? ''} (${ctx.context.count})` }),
      commandRoute({ id: 'count', command: '/count', event: 'go', response: (_input, ctx) => ({ assign: { count: ctx.context.count + 1 } }) }),
    ],
    fallback,
  },
})

describe('names the compiler checks', () => {
  it('infers the unions of state, event and UI-event names', () => {
    expectTypeOf<StateName<typeof orders>>().toEqualTypeOf<'idle' | 'asking' | 'done'>()
    expectTypeOf<EventName<typeof orders>>().toEqualTypeOf<'start' | 'help' | 'order' | 'cancel'>()
    expectTypeOf<UiEventName<typeof orders>>().toEqualTypeOf<'confirm'>()
    expectTypeOf<StateName<typeof typedContext>>().toEqualTypeOf<'idle'>()
    const session = createChatSession(orders)
    expectTypeOf(session.getSnapshot().state).toEqualTypeOf<'idle' | 'asking' | 'done'>()
    expectTypeOf(session.getSnapshot().events).toEqualTypeOf<readonly ('start' | 'help' | 'order' | 'cancel')[]>()
    expectTypeOf(createChatSession(typedContext).getSnapshot().context.count).toEqualTypeOf<number>()
  })

  it('keeps `string` where names cannot be inferred, and typed definitions fit untyped slots', () => {
    expectTypeOf<StateName<ChatDefinition>>().toEqualTypeOf<string>()
    const legacy = defineChat<Ctx>({ id: 'legacy', chat: {}, conversation: { initial: 'a', context: { count: 0 }, states: { a: {} }, routes: [], fallback } })
    expectTypeOf(legacy).toEqualTypeOf<ChatDefinition<Ctx>>()
    expectTypeOf(createChatSession(legacy).getSnapshot().state).toEqualTypeOf<string>()
    expectTypeOf(orders).toMatchTypeOf<ChatDefinition>()
    expectTypeOf(typedContext).toMatchTypeOf<ChatDefinition<Ctx>>()
  })

  it('1: a transition target', () => {
    defineChat({
      id: 'p1',
      chat: {},
      conversation: {
        initial: 'idle',
        // @ts-expect-error "asking" is misspelt
        states: { idle: { on: { start: 'askng' } }, asking: {} },
        routes: [],
        fallback,
      },
    })
  })

  it('2: a guarded transition target', () => {
    defineChat({
      id: 'p2',
      chat: {},
      conversation: {
        initial: 'idle',
        states: {
          idle: { on: { start: 'asking' } },
          // @ts-expect-error "idle" is misspelt
          asking: { on: { cancel: { target: 'idel', guard: () => true } } },
        },
        routes: [],
        fallback,
      },
    })
  })

  it('3: the initial state', () => {
    defineChat({
      id: 'p3',
      chat: {},
      conversation: {
        // @ts-expect-error "idle" is misspelt
        initial: 'idel',
        states: { idle: {} },
        routes: [],
        fallback,
      },
    })
  })

  it('4: a route event', () => {
    defineChat({
      id: 'p4',
      chat: {},
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'idle' } } },
        routes: [
          // @ts-expect-error "start" is misspelt
          commandRoute({ id: 'start', command: '/start', event: 'strat', response: 'Hi.' }),
        ],
        fallback,
      },
    })
  })

  it('5: a route states list', () => {
    defineChat({
      id: 'p5',
      chat: {},
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'idle' } } },
        routes: [
          // @ts-expect-error "idle" is misspelt
          commandRoute({ id: 'start', command: '/start', event: 'start', states: ['idel'], response: 'Hi.' }),
        ],
        fallback,
      },
    })
  })

  it('6: a session start state', () => {
    // @ts-expect-error "asking" is misspelt
    createChatSession(orders, { start: { state: 'askng' } })
  })

  it('7: a comparison with getSnapshot().state', () => {
    const session = createChatSession(orders)
    // @ts-expect-error "done" is misspelt: the comparison can never be true
    if (session.getSnapshot().state === 'don') throw new Error('unreachable')
  })

  it('8: sendUiEvent', async () => {
    const session = createChatSession(orders)
    const controller = createChatController(session.chat)
    await sendUiEvent<typeof session>(controller, 'confirm')
    // @ts-expect-error "confirm" is misspelt
    await sendUiEvent<typeof orders>(controller, 'confrim')
  })

  it('9: a UI event step of runConversation', async () => {
    await runConversation(orders, [{ user: '/start' }, { event: 'confirm' }])
    // @ts-expect-error "confirm" is misspelt
    await runConversation(orders, [{ user: '/start' }, { event: 'confrim' }])
  })

  it('10: the start state of runConversation', async () => {
    // @ts-expect-error "asking" is misspelt
    await runConversation(orders, [{ user: '12345' }], { start: { state: 'askng' } })
  })

  it('11: a state asserted on a runConversation result', async () => {
    const run = await runConversation(orders, [{ user: '/start' }])
    // @ts-expect-error "asking" is misspelt: the comparison can never be true
    if (run.turns[0]?.snapshot.state === 'askng') throw new Error('unreachable')
  })

  it('12: a wrongly typed assign is reported at the assign', () => {
    defineChat<Ctx>()({
      id: 'p12',
      chat: {},
      conversation: {
        initial: 'idle',
        context: { count: 0 },
        states: { idle: { on: { go: 'idle' } } },
        routes: [
          commandRoute({
            id: 'count',
            command: '/count',
            event: 'go',
            // @ts-expect-error count is a number (reported here, as "Type 'string' is not assignable to type 'number'")
            response: { assign: { count: 'one' } },
          }),
          patternRoute({
            id: 'order',
            pattern: /(?<orderNumber>\d+)/,
            event: 'go',
            // @ts-expect-error orderNumber is a string
            assign: (groups) => ({ orderNumber: Number(groups.orderNumber) }),
            response: 'Noted.',
          }),
        ],
        fallback,
      },
    })
  })

  it('13: a conversation-level transition target', () => {
    defineChat({
      id: 'p13',
      chat: {},
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'asking' } }, asking: {} },
        // @ts-expect-error "idle" is misspelt
        on: { cancel: 'idel' },
        routes: [commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: 'Cancelled.' })],
        fallback,
      },
    })
  })

  it('14: a form completion event and a state opting out of conversation-level events', () => {
    defineChat({
      id: 'p14',
      chat: {},
      conversation: {
        initial: 'idle',
        on: { cancel: 'idle' },
        states: {
          idle: { on: { start: 'form' } },
          form: {
            on: { filled: 'idle' },
            // @ts-expect-error "filled" is misspelt
            form: { slots: { name: { prompt: 'Your name?' } }, done: 'filed' },
          },
          // @ts-expect-error "cancel" is misspelt
          quiet: { ignoreGlobal: ['cancl'] },
        },
        routes: [],
        fallback,
      },
    })
  })

  it('15: routes built outside the literal are checked where they are used', () => {
    const help = route({ id: 'help', event: 'help', match: (input) => input === '?', response: 'Type /start.' })
    const cancel = commandRoute({ id: 'cancel', command: '/cancel', event: 'cancl', response: 'Cancelled.' })
    expectTypeOf(help.event).toEqualTypeOf<'help' | undefined>()
    const states = { idle: { on: { help: 'idle', cancel: 'idle' } } } as const
    defineChat({ id: 'p15', chat: {}, conversation: { initial: 'idle', states, routes: [help], fallback } })
    // @ts-expect-error "cancel" is misspelt where the route was built
    defineChat({ id: 'p15', chat: {}, conversation: { initial: 'idle', states, routes: [help, cancel], fallback } })
  })

  it('16: a snapshot events check', () => {
    const { events } = createChatSession(orders).getSnapshot()
    // @ts-expect-error "cancel" is misspelt
    if (events.includes('cancl')) throw new Error('unreachable')
  })

  it('a name held in a `string` (not a literal) is accepted where a value is expected', async () => {
    const stored: string = 'asking'
    createChatSession(orders, { start: { state: stored } })
    const clicked: string = 'confirm'
    await runConversation(orders, [{ event: clicked }], { start: { state: stored } })
    expectTypeOf(createChatSession(orders, { start: { state: 'asking' } })).toEqualTypeOf(createChatSession(orders))
  })

  it('routes given an explicit context type are unchecked and fit any definition', () => {
    const counted = commandRoute<Ctx>({ id: 'count', command: '/count', event: 'anything', states: ['anywhere'], response: { assign: { count: 1 } } })
    defineChat<Ctx>()({ id: 'unchecked', chat: {}, conversation: { initial: 'idle', context: { count: 0 }, states: { idle: { on: { go: 'idle' } } }, routes: [counted], fallback } })
    // @ts-expect-error count is a number, checked even without names
    commandRoute<Ctx>({ id: 'count', command: '/count', event: 'go', response: { assign: { count: 'one' } } })
  })
})

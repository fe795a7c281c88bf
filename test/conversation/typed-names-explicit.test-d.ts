import { describe, expectTypeOf, it } from 'vitest'
import { commandRoute, defineChat, type ChatDefinition, type StateName } from '../../src/index.js'

/**
 * Issue 27 item 6: a newcomer's typo probes with a context type. `defineChat<Ctx>()({ … })` (the
 * curried form) keeps the names typed, so each misspelling below is a compile error (the
 * `@ts-expect-error`s); `defineChat<Ctx>({ … })` cannot (TypeScript infers no type argument once
 * one is given), so the same probes compile there, typed `string`, and are caught at run time
 * instead (typed-names-explicit.test.ts). The docs show the curried form first for that reason.
 */

type Ctx = { orderNumber?: string }
const fallback = { response: 'Sorry.' }

describe('typo probes with a context type', () => {
  it('defineChat<Ctx>()({ … }) keeps the names typed', () => {
    const definition = defineChat<Ctx>()({ id: 'p', chat: {}, conversation: { initial: 'idle', states: { idle: { on: { start: 'asking' } }, asking: {} }, routes: [], fallback } })
    expectTypeOf(definition.conversation.initial).toEqualTypeOf<'idle' | 'asking'>()
    expectTypeOf<StateName<typeof definition>>().toEqualTypeOf<'idle' | 'asking'>()
  })

  it('1: a transition target', () => {
    defineChat<Ctx>()({
      id: 'p',
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
    defineChat<Ctx>()({
      id: 'p',
      chat: {},
      conversation: {
        initial: 'idle',
        // @ts-expect-error "asking" is misspelt
        states: { idle: { on: { start: { target: 'askng', guard: () => true } } }, asking: {} },
        routes: [],
        fallback,
      },
    })
  })

  it('3: initial', () => {
    defineChat<Ctx>()({
      id: 'p',
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

  it('4: a conversation-level target', () => {
    defineChat<Ctx>()({
      id: 'p',
      chat: {},
      conversation: {
        initial: 'idle',
        // @ts-expect-error "idle" is misspelt
        on: { cancel: 'idel' },
        states: { idle: {}, asking: {} },
        routes: [],
        fallback,
      },
    })
  })

  it('5: a route event', () => {
    defineChat<Ctx>()({
      id: 'p',
      chat: {},
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'asking' } }, asking: { on: { back: 'idle' } } },
        routes: [
          // @ts-expect-error "start" is misspelt
          commandRoute({ id: 'start', command: '/start', event: 'strat', response: 'Hi.' }),
        ],
        fallback,
      },
    })
  })

  it('6: a route state', () => {
    defineChat<Ctx>()({
      id: 'p',
      chat: {},
      conversation: {
        initial: 'idle',
        states: { idle: { on: { start: 'asking' } }, asking: { on: { back: 'idle' } } },
        routes: [
          // @ts-expect-error "idle" is misspelt
          commandRoute({ id: 'start', command: '/start', event: 'start', states: ['idel'], response: 'Hi.' }),
        ],
        fallback,
      },
    })
  })

  it('defineChat<Ctx>({ … }) compiles the same probes, every name a string (TypeScript cannot infer them next to <Ctx>)', () => {
    const unchecked = defineChat<Ctx>({
      id: 'p',
      chat: {},
      conversation: {
        initial: 'idel',
        on: { cancel: 'idel' },
        states: { idle: { on: { start: 'askng' } }, asking: {} },
        routes: [commandRoute({ id: 'start', command: '/start', event: 'strat', states: ['idel'], response: 'Hi.' })],
        fallback,
      },
    })
    expectTypeOf(unchecked).toEqualTypeOf<ChatDefinition<Ctx>>()
    expectTypeOf<StateName<typeof unchecked>>().toEqualTypeOf<string>()
  })
})

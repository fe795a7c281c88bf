import { describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { commandRoute, createChatSession, defineChat, eventRoute, textRoute, type ChatDefinition } from '../../src/index.js'
import { drive } from './chat-driver.js'

// Issue 19 §2: refusals answer the route's `refuse` re-prompt; forms collect slots; a stale UI event answers `unavailable`.

type Card = { digits?: string; postcode?: string; confirmed?: boolean; formAttempts?: number }

function cardFlow(): ChatDefinition<Card> {
  return defineChat<Card>({
    id: 'card',
    chat: {},
    conversation: {
      initial: 'greeting',
      context: {},
      on: { cancel: 'greeting' },
      states: {
        greeting: { on: { start: 'identify' } },
        identify: {
          on: { identified: 'confirming', stuck: 'human' },
          form: {
            slots: {
              digits: { prompt: 'The last 4 digits of your card?', validate: z.string().regex(/^\d{4}$/), reprompt: 'Please type exactly 4 digits.', maxAttempts: 3 },
              postcode: { prompt: 'Your postcode?', validate: (input) => (/^[A-Z0-9 ]{3,8}$/i.test(input) ? input.toUpperCase() : undefined) },
            },
            done: 'identified',
            response: (ctx) => `Card ending ${ctx.digits ?? '?'}, postcode ${ctx.postcode ?? '?'}. Is the address right?`,
            exhausted: 'stuck',
            exhaustedResponse: 'Let me get a person to help.',
          },
        },
        confirming: {
          on: { confirm: { target: 'done', guard: ({ context }) => context.postcode !== 'NONE' } },
        },
        human: {},
        done: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Let us replace your card.' }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: { text: 'Cancelled.', assign: { digits: undefined, postcode: undefined } } }),
        textRoute({ id: 'yes', text: 'yes', event: 'confirm', refuse: 'We cannot ship without a postcode. Type /cancel to start again.', response: 'Done.' }),
        eventRoute({ id: 'confirm-button', uiEvent: 'confirm', event: 'confirm', response: 'Done.' }),
        textRoute({
          id: 'vip',
          text: 'vip',
          event: 'confirm',
          guard: ({ context }) => context.confirmed === true,
          refuse: async (_input, ctx) => `Not in state ${ctx.state}.`,
          response: 'VIP done.',
        }),
      ],
      fallback: { response: 'Fallback.' },
    },
  })
}

describe('refusals', () => {
  it('a refused transition guard answers the route’s refuse re-prompt: deterministic, outcome refused, no transition, replayable', async () => {
    const chat = drive(cardFlow(), { start: { state: 'confirming', context: { digits: '1234', postcode: 'NONE' } } })
    await chat.say('yes')
    expect(chat.reply()).toBe('We cannot ship without a postcode. Type /cancel to start again.')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'refused', routeId: 'yes', fromState: 'confirming', toState: 'confirming', reason: 'transition-refused:guard-refused' })
    expect(chat.controller.getState().messages.at(-1)?.status).toBe('complete')
    await chat.controller.regenerate()
    expect(chat.last()).toMatchObject({ outcome: 'refused', replayed: true })
    expect(chat.session.getSnapshot().state).toBe('confirming')
  })

  it('a refused route guard with `refuse` answers it (async refuse too) instead of trying later routes', async () => {
    const chat = drive(cardFlow(), { start: { state: 'confirming', context: { digits: '1234', postcode: 'AB1' } } })
    await chat.say('vip')
    expect(chat.reply()).toBe('Not in state confirming.')
    expect(chat.last()).toMatchObject({ outcome: 'refused', routeId: 'vip', reason: 'guard-refused' })
  })

  it('without `refuse`, a refused transition stays an error turn (as before)', async () => {
    const chat = drive(cardFlow(), { start: { state: 'confirming', context: { digits: '1234', postcode: 'NONE' } } })
    await chat.click('confirm')
    expect(chat.last()).toMatchObject({ outcome: 'error', routeId: 'confirm-button' })
  })
})

describe('forms', () => {
  it('asks each slot on entry, validates (zod or function), re-prompts, fills the context, fires `done`', async () => {
    const chat = drive(cardFlow())
    await chat.say('/start')
    expect(chat.reply()).toBe('Let us replace your card.\n\nThe last 4 digits of your card?')
    await chat.say('12')
    expect(chat.reply()).toBe('Please type exactly 4 digits.')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'refused', reason: 'invalid-slot', fromState: 'identify', toState: 'identify' })
    expect(chat.session.getSnapshot().context).toEqual({ formAttempts: 1 })
    await chat.say(' 4321 ')
    expect(chat.reply()).toBe('Your postcode?')
    expect(chat.last()).toMatchObject({ outcome: 'ok', reason: 'slot-filled' })
    expect(chat.session.getSnapshot().context).toEqual({ digits: '4321' })
    await chat.say('ab1 2cd')
    expect(chat.reply()).toBe('Card ending 4321, postcode AB1 2CD. Is the address right?')
    expect(chat.last()).toMatchObject({ outcome: 'ok', reason: 'form-complete', event: 'identified', fromState: 'identify', toState: 'confirming' })
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'confirming', context: { digits: '4321', postcode: 'AB1 2CD' } })
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('routes still win inside a form (global /cancel), and leaving clears the attempt count', async () => {
    const chat = drive(cardFlow())
    await chat.say('/start')
    await chat.say('x')
    await chat.say('/cancel')
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'greeting', context: {} })
  })

  it('after maxAttempts invalid answers the exhausted event fires; the count is rebuilt from history alone', async () => {
    const chat = drive(cardFlow())
    await chat.say('/start')
    await chat.say('a')
    await chat.say('b')
    const midway = chat.rebuilt()
    expect(midway.getSnapshot().context).toEqual({ formAttempts: 2 })
    await chat.say('c')
    expect(chat.reply()).toBe('Let me get a person to help.')
    expect(chat.last()).toMatchObject({ outcome: 'ok', reason: 'form-exhausted', event: 'stuck', toState: 'human' })
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'human', context: {} })
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('a session with a recordKey that trusts none of the records re-derives form turns from their text', async () => {
    const chat = drive(cardFlow())
    for (const text of ['/start', 'x', '4321', 'ab1 2cd']) await chat.say(text)
    const strict = createChatSession(cardFlow(), { lint: false, recordKey: 'another-secret-of-32-bytes-length' })
    strict.sync(chat.messages())
    expect(strict.getSnapshot()).toEqual(chat.session.getSnapshot())
    expect(strict.getSnapshot()).toMatchObject({ state: 'confirming', context: { digits: '4321', postcode: 'AB1 2CD' } })
  })

  it('a retried form answer replays without calling the validator again', async () => {
    const validate = vi.fn((input: string) => (input.length === 4 ? input : undefined))
    const def = defineChat({
      id: 'v',
      chat: {},
      conversation: { initial: 'f', states: { f: { on: { ok: 'g' }, form: { slots: { pin: { prompt: 'PIN?', validate } }, done: 'ok' } }, g: { final: true } }, routes: [], fallback: { response: 'x' } },
    })
    const chat = drive(def)
    await chat.say('1234')
    expect(chat.session.getSnapshot().state).toBe('g')
    await chat.controller.regenerate()
    expect(chat.last()?.replayed).toBe(true)
    expect(validate).toHaveBeenCalledTimes(1)
  })

  it('a validator that throws fails the turn like a route (error, reason form-threw), changing nothing', async () => {
    const def = defineChat({
      id: 'boom',
      chat: {},
      conversation: { initial: 'f', states: { f: { on: { ok: 'g' }, form: { slots: { pin: { prompt: 'PIN?', validate: () => { throw new TypeError('bad validator') } } }, done: 'ok' } }, g: { final: true } }, routes: [], fallback: { response: 'x' } },
    })
    const chat = drive(def)
    await chat.say('1234')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'error', reason: 'form-threw', errorClass: 'TypeError', fromState: 'f', toState: 'f' })
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'f', context: {} })
  })

  it('validation: form events must be declared; maxAttempts needs `exhausted`', () => {
    let issues: { code: string; message: string }[] = []
    try {
      defineChat({ id: 'f', chat: {}, conversation: { initial: 'f', states: { f: { form: { slots: { a: { prompt: 'A?', maxAttempts: 2 } }, done: 'nope' } } }, routes: [], fallback: { response: 'x' } } } as never)
    } catch (error) {
      issues = (error as { issues: typeof issues }).issues
    }
    expect(issues.map((issue) => issue.code)).toEqual(['undeclared_form_event', 'max_attempts_without_event'])
    expect(issues[0]?.message).toBe('The form of state "f" fires "nope", which the state does not declare.')
  })
})

describe('stale UI events', () => {
  it('a UI event the routes know but the state does not take answers `unavailable`, no model call, no transition', async () => {
    const def = cardFlow()
    const chat = drive(def)
    await chat.click('confirm')
    expect(chat.reply()).toBe('That option is no longer available.')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'unavailable', fromState: 'greeting', toState: 'greeting', reason: 'stale-ui-event' })
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('the answer is configurable; an event no route knows still goes to the agent', async () => {
    const def = defineChat({
      id: 's',
      chat: {},
      conversation: { initial: 'a', unavailable: 'That button has expired.', states: { a: { on: { go: 'b' } }, b: {} }, routes: [eventRoute({ id: 'go', uiEvent: 'go', event: 'go', states: ['a'], response: 'Going.' })], fallback: { response: 'fallback' } },
    })
    const chat = drive(def, { start: { state: 'b' } })
    await chat.click('go')
    expect(chat.reply()).toBe('That button has expired.')
    await chat.click('unknown-thing')
    expect(chat.last()?.kind).toBe('fallback')
    expect(createChatSession(def, { lint: false }).getSnapshot().state).toBe('a')
  })
})

import { describe, expect, it } from 'vitest'
import { commandRoute, createChatSession, defineChat, eventRoute, isChatrailConfigError, patternRoute, textRoute } from '../../src/index.js'
import { lintDefinition } from '../../src/conversation/tools.js'
import { drive } from './chat-driver.js'

// Issue 19 §1: conversation-level `on`, reply-only routes, and Start over.

function flow() {
  return defineChat({
    id: 'once',
    chat: {},
    conversation: {
      initial: 'greeting',
      context: {},
      on: { cancel: 'greeting', escalate: 'human', help: 'greeting' },
      states: {
        greeting: { on: { start: 'collecting' } },
        collecting: { on: { order: 'confirming', help: 'collecting' } },
        confirming: { on: { confirm: 'resolved' }, ignoreGlobal: ['cancel'] },
        human: { ignoreGlobal: true, on: { resolve: 'resolved' } },
        resolved: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Order number?' }),
        patternRoute({ id: 'order', pattern: /(?<order>\d{4,})/, event: 'order', assign: true, response: 'Confirm?' }),
        textRoute({ id: 'yes', text: 'yes', event: 'confirm', response: 'Done.' }),
        commandRoute({ id: 'cancel', command: '/cancel', event: 'cancel', response: { text: 'Cancelled.', assign: { order: undefined } } }),
        commandRoute({ id: 'help', command: '/help', response: (_input, ctx) => `You are at "${ctx.state}".` }),
        textRoute({ id: 'faq-hours', text: 'opening hours', response: 'We answer around the clock.' }),
        commandRoute({ id: 'human', command: '/human', event: 'escalate', response: 'A person will reply.' }),
        eventRoute({ id: 'resolve', uiEvent: 'resolve', event: 'resolve', response: 'Bye!' }),
        commandRoute({ id: 'restart', command: '/start', restart: true, states: ['resolved'], response: 'Starting over.' }),
        eventRoute({ id: 'start-over', uiEvent: 'start-over', restart: true, states: ['resolved'], response: 'Starting over.' }),
      ],
      fallback: { response: 'Fallback.' },
    },
  })
}

describe('conversation-level transitions', () => {
  it('every non-final state takes them; a state’s own `on` wins; `ignoreGlobal` opts out (all, or named events)', () => {
    const def = flow()
    const events = (state: string) => createChatSession(def, { lint: false, start: { state } }).getSnapshot().events
    expect(events('greeting')).toEqual(['start', 'cancel', 'escalate', 'help'])
    expect(events('collecting')).toEqual(['order', 'help', 'cancel', 'escalate'])
    expect(events('confirming')).toEqual(['confirm', 'escalate', 'help'])
    expect(events('human')).toEqual(['resolve'])
    expect(events('resolved')).toEqual([])
  })

  it('a route for a global event fires in every state that takes it, declared once', async () => {
    const chat = drive(flow())
    await chat.say('/start')
    await chat.say('/cancel')
    expect(chat.last()).toMatchObject({ routeId: 'cancel', event: 'cancel', fromState: 'collecting', toState: 'greeting' })
    await chat.say('/start')
    await chat.say('order 12345')
    await chat.say('/cancel') // confirming ignores cancel: no route takes it, the fallback answers
    expect(chat.session.getSnapshot().state).toBe('confirming')
    expect(chat.last()?.kind).toBe('fallback')
    await chat.say('/human')
    expect(chat.session.getSnapshot().state).toBe('human')
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('validation names an unknown target and an ignored event the conversation does not declare', () => {
    const attempt = () =>
      defineChat({
        id: 'bad',
        chat: {},
        conversation: {
          initial: 'a',
          on: { cancel: 'nowhere' },
          states: { a: { ignoreGlobal: ['cancle'] } },
          routes: [],
          fallback: { response: 'x' },
        } as never,
      })
    let error: unknown
    try {
      attempt()
    } catch (caught) {
      error = caught
    }
    expect(isChatrailConfigError(error)).toBe(true)
    const codes = (error as { issues: { code: string; message: string; hint: string }[] }).issues
    expect(codes.map((issue) => issue.code)).toEqual(['unknown_target', 'unknown_ignored_event'])
    expect(codes[1]?.hint).toMatch(/cancel/)
  })
})

describe('reply-only routes', () => {
  it('answer without a transition in any state, final states included; replay and rebuild keep the state', async () => {
    const chat = drive(flow())
    await chat.say('/help')
    expect(chat.reply()).toBe('You are at "greeting".')
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'ok', routeId: 'help', fromState: 'greeting', toState: 'greeting' })
    expect(chat.last()?.event).toBeUndefined()
    await chat.say('/start')
    await chat.say('opening hours')
    expect(chat.reply()).toBe('We answer around the clock.')
    expect(chat.session.getSnapshot().state).toBe('collecting')
    await chat.controller.regenerate()
    expect(chat.last()).toMatchObject({ replayed: true, routeId: 'faq-hours' })
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('answer in a final state', async () => {
    const chat = drive(flow(), { start: { state: 'resolved' } })
    await chat.say('opening hours')
    expect(chat.last()).toMatchObject({ routeId: 'faq-hours', outcome: 'ok', fromState: 'resolved', toState: 'resolved' })
  })

  it('may assign: the patch is recorded and rebuilt without a transition', async () => {
    const def = defineChat({
      id: 'note',
      chat: {},
      conversation: { initial: 'a', context: {}, states: { a: {} }, routes: [patternRoute({ id: 'note', pattern: /^note (?<note>.+)$/, assign: true, response: 'Noted.' })], fallback: { response: 'x' } },
    })
    const chat = drive(def)
    await chat.say('note call back at 5')
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'a', context: { note: 'call back at 5' } })
    expect(chat.rebuilt().getSnapshot().context).toEqual({ note: 'call back at 5' })
  })

  it('the lint does not call a reply-only route dead', () => {
    const codes = lintDefinition(flow()).map((warning) => `${warning.code}:${warning.path.join('.')}`)
    expect(codes.filter((code) => code.startsWith('dead_route'))).toEqual([])
  })
})

describe('Start over', () => {
  it('a restart route returns a final state to `initial` with the definition’s context, traced', async () => {
    const chat = drive(flow())
    await chat.say('/start')
    await chat.say('order 12345')
    await chat.say('yes')
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'resolved', final: true, context: { order: '12345' }, restart: 'start-over' })
    await chat.say('/start')
    expect(chat.reply()).toBe('Starting over.')
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'greeting', context: {} })
    expect(chat.session.getSnapshot().restart).toBeUndefined()
    expect(chat.last()).toMatchObject({ kind: 'deterministic', outcome: 'ok', routeId: 'restart', fromState: 'resolved', toState: 'greeting', reason: 'restart' })
    expect(chat.messages().at(-1)?.metadata?.chatrail).toMatchObject({ restart: true, fromState: 'resolved', toState: 'greeting' })
    expect(chat.rebuilt().getSnapshot()).toEqual(chat.session.getSnapshot())
  })

  it('the Start over button (snapshot.restart) sends the restart UI event; outside its states the button is stale', async () => {
    const chat = drive(flow(), { start: { state: 'resolved', context: { order: '1' } } })
    await chat.click(chat.session.getSnapshot().restart ?? 'missing')
    expect(chat.session.getSnapshot()).toMatchObject({ state: 'greeting', context: {} })
    await chat.click('start-over')
    expect(chat.last()).toMatchObject({ outcome: 'unavailable', fromState: 'greeting', toState: 'greeting' })
  })

  it('a route cannot both fire an event and restart', () => {
    expect(() =>
      defineChat({ id: 'x', chat: {}, conversation: { initial: 'a', states: { a: { on: { go: 'a' } } }, routes: [commandRoute({ id: 'r', command: '/r', event: 'go', restart: true, response: 'x' })], fallback: { response: 'x' } } }),
    ).toThrow(/both `event` and `restart`/)
  })
})

import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, sendUiEvent } from '../../src/index.js'
import { errorChunk, scriptedAdapter } from '../../src/testing/index.js'
import { createSupportBot, SUPPORT_EVENTS, supportBot } from './definition.js'

function mount(definition = supportBot) {
  let n = 0
  const session = createChatSession(definition, { sessionId: 'demo', ids: () => `turn-${++n}` })
  let m = 0
  const controller = createChatController(session.chat, { ids: () => `m${++m}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const reply = () => controller.getState().messages.at(-1)?.content
  return { session, controller, reply }
}

describe('support-bot example', () => {
  it('walks greeting → order number → confirmation deterministically', async () => {
    const agent = scriptedAdapter(['agent'])
    const { session, controller, reply } = mount(createSupportBot(agent))
    await controller.send('Hello')
    expect(reply()).toContain('Type /start')
    await controller.send('/start')
    expect(session.getSnapshot()).toMatchObject({ state: 'collecting', actions: ['type-order-number', 'talk-to-a-person', 'cancel'] })
    await controller.send('it is order #1234567')
    expect(reply()).toBe('Order #1234567: it shows as lost in transit. Shall I reship it? (yes / no)')
    expect(session.getSnapshot()).toMatchObject({ state: 'confirming', context: { orderNumber: '1234567' } })
    await controller.send('Yes please')
    expect(reply()).toBe('Done: order #1234567 will be reshipped today.')
    expect(session.getSnapshot()).toMatchObject({ state: 'resolved', final: true, context: { orderNumber: '1234567', reshipped: true } })
    expect(agent.calls).toHaveLength(0)
    expect(session.traces().map((t) => t.routeId)).toEqual(['greet', 'start', 'order-number', 'confirm'])
  })

  it('buttons (UI events) confirm and escalate; frustration escalates as a repaired turn', async () => {
    const { session, controller } = mount()
    await controller.send('/start')
    await controller.send('55555')
    await sendUiEvent(controller, SUPPORT_EVENTS.confirm, 'Confirm')
    expect(session.getSnapshot().state).toBe('resolved')
    const other = mount()
    await other.controller.send('this is useless')
    expect(other.session.getSnapshot().state).toBe('escalated')
    expect(other.session.traces()[0]).toMatchObject({ kind: 'repaired', routeId: 'frustrated' })
    await sendUiEvent(other.controller, SUPPORT_EVENTS.resolve, 'Mark as solved')
    expect(other.session.getSnapshot().state).toBe('resolved')
  })

  it('the confirmation is guarded: without an order number on file the machine refuses it and the route re-prompts', async () => {
    const session = createChatSession(supportBot, { start: { state: 'confirming' } })
    const controller = createChatController(session.chat)
    await controller.send('yes')
    expect(controller.getState().status).toBe('idle')
    expect(controller.getState().messages.at(-1)?.content).toBe('I need your order number before I can reship anything. What is it? (for example #12345)')
    expect(session.getSnapshot().state).toBe('confirming')
    expect(session.traces()[0]).toMatchObject({ outcome: 'refused', routeId: 'confirm', reason: 'transition-refused:guard-refused' })
  })

  it('/help answers in every state without moving; /cancel and /human are declared once; Start over after the end', async () => {
    const { session, controller, reply } = mount()
    await controller.send('/start')
    await controller.send('#12345')
    await controller.send('/help')
    expect(reply()).toBe('You are at step "confirming". Commands: /start, /cancel, /human, /help.')
    expect(session.getSnapshot().state).toBe('confirming')
    await controller.send('yes')
    expect(session.getSnapshot()).toMatchObject({ state: 'resolved', restart: SUPPORT_EVENTS.startOver })
    await controller.send('/help')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'help', fromState: 'resolved', toState: 'resolved' })
    await sendUiEvent(controller, SUPPORT_EVENTS.confirm, 'Confirm')
    expect(session.traces().at(-1)).toMatchObject({ outcome: 'unavailable' })
    expect(reply()).toBe('That option is no longer available.')
    await controller.send('/start')
    expect(session.getSnapshot()).toMatchObject({ state: 'greeting', context: {} })
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'start-over', reason: 'restart', fromState: 'resolved', toState: 'greeting' })
    await controller.send('/human')
    expect(session.getSnapshot().state).toBe('escalated')
  })

  it('the fallback answers when there is no agent or the agent fails', async () => {
    const { reply, session, controller } = mount()
    await controller.send('/start')
    await controller.send('where is my parcel?')
    expect(reply()).toBe("Sorry, I can't answer that right now. Please type your order number (for example #12345).")
    expect(session.traces().at(-1)).toMatchObject({ kind: 'fallback', errorClass: 'MissingAdapter' })
    const failing = mount(createSupportBot(scriptedAdapter([[errorChunk('upstream 503')]])))
    await failing.controller.send('hi there, anyone?')
    expect(failing.reply()).toContain('Type /start')
    expect(failing.session.traces()[0]).toMatchObject({ kind: 'fallback', errorClass: 'Error' })
  })

  it('/cancel clears the order number; regenerate replays without calling anything', async () => {
    const { session, controller, reply } = mount()
    await controller.send('/start')
    await controller.send('#98765')
    await controller.send('/cancel')
    expect(session.getSnapshot()).toMatchObject({ state: 'greeting', context: {} })
    await controller.regenerate()
    expect(reply()).toBe('Cancelled. Type /start whenever you are ready.')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'cancel', replayed: true })
  })
})

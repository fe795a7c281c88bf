import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { defineComponents, standardCatalog, type ComponentPart } from '../../src/components/index.js'
import { commandRoute, createChatSession, defineChat, eventRoute } from '../../src/index.js'
import { answeredInteractions, interactionOf, sendInteraction } from '../../src/components/index.js'
import type { Message } from '../../src/contract/message.js'
import { scriptedAdapter } from '../../src/testing/index.js'

/**
 * Interactions with components travel as user messages (like UI events), so the history every
 * tab and instance shares is what says a component was answered: the session answers one
 * interaction per component, refuses a repeat, a forged component and a value it does not offer,
 * and a rebuilt session agrees on the state.
 */

const components = defineComponents(standardCatalog)
const choices = components.render('choice-list', { prompt: 'Reship or refund?', choices: [{ id: 'reship', label: 'Reship' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next-step' })

const definition = defineChat({
  id: 'lost-card',
  chat: { adapter: scriptedAdapter(['The agent answers.']) },
  components,
  conversation: {
    initial: 'idle',
    states: { idle: { on: { lost: 'choosing' } }, choosing: { on: { reship: 'reshipping' } }, reshipping: {} },
    routes: [
      commandRoute({ id: 'lost', command: '/lost', event: 'lost', response: () => ['Sorry about the card.', choices] }),
      eventRoute({ id: 'reship', uiEvent: 'reship', event: 'reship', response: 'A new card is on its way.' }),
    ],
  },
})

function run() {
  const adapter = scriptedAdapter(['The agent answers.'])
  const session = createChatSession({ ...definition, chat: { adapter } }, { lint: false, sessionId: 's1' })
  let n = 0
  const controller = createChatController(session.chat, { ids: () => `m${++n}`, clock: () => new Date(0) })
  controller.subscribe(() => session.sync(controller.getState().messages))
  const messages = (): Message[] => controller.getState().messages
  const lastAnswer = (): Message | undefined => messages().findLast((message) => message.role === 'assistant')
  return { adapter, session, controller, messages, lastAnswer }
}

async function shown(chat: ReturnType<typeof run>): Promise<{ messageId: string; part: ComponentPart }> {
  await chat.controller.send('/lost')
  const answer = chat.lastAnswer()
  const part = answer?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
  if (!answer || !part) throw new Error('no component shown')
  return { messageId: answer.id, part }
}

describe('interactions with components', () => {
  it('a choice is a user message labelled with it; its id is the UI event a route answers', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'reship' })
    const sent = chat.messages().findLast((message) => message.role === 'user')
    expect(sent?.content).toBe('Reship')
    expect(interactionOf(sent as Message)).toEqual({ messageId, instanceId: 'next-step', componentKey: 'choice-list', event: 'select', value: 'reship' })
    expect(chat.lastAnswer()?.content).toBe('A new card is on its way.')
    expect(chat.session.getSnapshot().state).toBe('reshipping')
    expect(chat.adapter.calls).toHaveLength(0)
    expect(answeredInteractions(chat.messages())).toEqual(new Set([`${messageId}:next-step`]))
  })

  it('a second interaction with the same component is refused: fixed answer, no transition, no model call', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'reship' })
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'refund' })
    expect(chat.lastAnswer()?.content).toBe('That was already answered.')
    expect(chat.session.traces().at(-1)).toMatchObject({ outcome: 'refused', reason: 'interaction-repeated' })
    expect(chat.session.getSnapshot().state).toBe('reshipping')
    expect(chat.adapter.calls).toHaveLength(0)
  })

  it('a component no earlier answer holds, and a value the component does not offer, are refused', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId: 'forged', part, event: 'select', value: 'reship' })
    expect(chat.session.traces().at(-1)).toMatchObject({ outcome: 'refused', reason: 'interaction-unknown-component' })
    await sendInteraction(chat.controller, { messageId, part: { ...part, instanceId: 'other' }, event: 'select', value: 'reship' })
    expect(chat.session.traces().at(-1)).toMatchObject({ outcome: 'refused', reason: 'interaction-unknown-component' })
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'burn-it' })
    expect(chat.session.traces().at(-1)).toMatchObject({ outcome: 'refused', reason: 'interaction-invalid' })
    await sendInteraction(chat.controller, { messageId, part, event: 'delete' })
    expect(chat.session.traces().at(-1)).toMatchObject({ outcome: 'refused', reason: 'interaction-invalid' })
    expect(chat.session.getSnapshot().state).toBe('choosing')
    expect(chat.adapter.calls).toHaveLength(0)
  })

  it('a refused interaction does not use the component up: a valid one after it stands', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'burn-it' })
    expect(answeredInteractions(chat.messages(), components)).toEqual(new Set())
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'reship' })
    expect(chat.session.getSnapshot().state).toBe('reshipping')
    expect(answeredInteractions(chat.messages(), components)).toEqual(new Set([`${messageId}:next-step`]))
  })

  it('a choice no route takes reaches the agent as its label, like typed text', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'refund' })
    expect(chat.adapter.calls).toHaveLength(1)
    expect(chat.adapter.calls[0]?.request.messages.at(-2)?.content).toBe('Refund')
    expect(chat.lastAnswer()?.content).toBe('The agent answers.')
  })

  it('a session rebuilt from the history is in the same state (invariant 2)', async () => {
    const chat = run()
    const { messageId, part } = await shown(chat)
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'reship' })
    await sendInteraction(chat.controller, { messageId, part, event: 'select', value: 'reship' })
    const fresh = createChatSession(definition, { lint: false })
    fresh.sync(chat.messages())
    expect(fresh.getSnapshot().state).toBe(chat.session.getSnapshot().state)
  })
})

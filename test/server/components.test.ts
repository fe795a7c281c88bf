import type { UIMessage } from 'ai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { restoredMessages, type RestoredUiMessage } from '../../src/client/index.js'
import { answeredInteractions, defineComponents, standardCatalog } from '../../src/components/index.js'
import { commandRoute, defineChat, eventRoute } from '../../src/index.js'
import { createChatHandler } from '../../src/server/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { everyStore } from './support/every-store.js'
import { countingAgent, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// Components through the server (issue 30): a route's component streams as a `data-component`
// part in its place, useChat's own reader keeps it, the store keeps it as a part, GET returns it
// where it streamed, a repeated submit streams it again from the store, and the client restores
// it as the same part. The agent never runs for it.

const stores = everyStore('components', 'components through the server')
const components = defineComponents(standardCatalog)
const choices = components.render('choice-list', { prompt: 'Reship or refund?', choices: [{ id: 'reship', label: 'Reship' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'lost-card' })
const progress = components.render('progress', { label: 'Checking the carrier' })

describe.each(stores)('components: %s', (_name, makeStore) => {
  let store: ConversationStore
  let server: Listening | undefined
  const agent = countingAgent()
  beforeEach(async () => {
    store = await makeStore()
    const definition = defineChat({
      id: 'lost-card',
      chat: { adapter: agent.adapter },
      components,
      conversation: {
        initial: 'idle',
        states: { idle: { on: { lost: 'choosing' } }, choosing: {} },
        routes: [commandRoute({ id: 'lost', command: '/lost', event: 'lost', response: () => ['Sorry about the card.', choices, progress, 'Pick one.'] })],
      },
    })
    server = await listen(createChatHandler({ definition, store, authenticate: 'none' }))
  }, 60_000)
  afterEach(async () => {
    await server?.close()
    await store.close()
  })

  const shown = (message: UIMessage | undefined) => (message?.parts ?? []).filter((part) => part.type === 'text' || part.type === 'data-component').map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : { type: part.type, id: (part as { id?: string }).id, data: (part as { data: unknown }).data }))
  const expected = [
    { type: 'text', text: 'Sorry about the card.' },
    { type: 'data-component', id: 'lost-card', data: choices },
    { type: 'data-component', id: progress.instanceId, data: progress },
    { type: 'text', text: 'Pick one.' },
  ]

  it('streams, stores, restores and replays the components in their place; the agent never runs', async () => {
    const url = server?.url ?? ''
    const live = await sendTurn(url, 'c1', [userMessage('u1', '/lost')])
    expect(shown(live.message)).toEqual(expected)
    expect(live.chatrail?.state).toBe('choosing')
    expect(agent.calls()).toBe(0)

    const stored = (await store.load('c1'))?.messages[1]
    expect(stored?.parts).toEqual([{ type: 'text', text: 'Sorry about the card.' }, choices, progress, { type: 'text', text: 'Pick one.' }])
    expect(stored?.content).toBe(`Sorry about the card.\n${choices.fallback.summary}\n\n${progress.fallback.summary}\nPick one.`)

    const { messages } = (await (await fetch(`${url}?id=c1`)).json()) as { messages: RestoredUiMessage[] }
    expect(messages[1]?.parts).toEqual(expected)
    const [, restored] = restoredMessages(messages, new Date(0))
    expect(restored?.parts).toEqual(stored?.parts)
    expect(restored?.content).toBe(stored?.content)

    const again = await sendTurn(url, 'c1', [userMessage('u1', '/lost')])
    expect(shown(again.message)).toEqual(expected)
    expect(agent.calls()).toBe(0)
  })
})

describe.each(stores)('an interaction from two tabs: %s', (_name, makeStore) => {
  it('the second tab\'s click on the same component is refused from the stored history, whatever its own history says', async () => {
    const store = await makeStore()
    const agent = countingAgent()
    const definition = defineChat({
      id: 'lost-card',
      chat: { adapter: agent.adapter },
      components,
      conversation: {
        initial: 'idle',
        states: { idle: { on: { lost: 'choosing' } }, choosing: { on: { reship: 'reshipping' } }, reshipping: {} },
        routes: [
          commandRoute({ id: 'lost', command: '/lost', event: 'lost', response: () => ['Pick one.', choices] }),
          eventRoute({ id: 'reship', uiEvent: 'reship', event: 'reship', response: 'On its way.' }),
        ],
      },
    })
    const server = await listen(createChatHandler({ definition, store, authenticate: 'none' }))
    try {
      const first = await sendTurn(server.url, 't1', [userMessage('u1', '/lost')])
      const answerId = first.message?.id ?? ''
      const click = (id: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text: 'Reship' }], metadata: { chatrail: { event: 'reship', interaction: { messageId: answerId, instanceId: 'lost-card', componentKey: 'choice-list', event: 'select', value: 'reship' } } } })
      // tab A streamed the answer: its page knows it by its own id, not the server's
      const clickAs = (id: string, answer: string): UIMessage => ({ ...click(id), metadata: { chatrail: { event: 'reship', interaction: { messageId: answer, instanceId: 'lost-card', componentKey: 'choice-list', event: 'select', value: 'reship' } } } })
      const tabA = await sendTurn(server.url, 't1', [userMessage('u1', '/lost'), { ...(first.message as UIMessage), id: 'page-answer-1' }, clickAs('ua', 'page-answer-1')])
      expect(tabA.text).toBe('On its way.')
      // a reload knows the choice was made: the click comes back with its interaction, on the server's id
      const { messages: restored } = (await (await fetch(`${server.url}?id=t1`)).json()) as { messages: RestoredUiMessage[] }
      expect(answeredInteractions(restoredMessages(restored, new Date(0)))).toEqual(new Set([`${answerId}:lost-card`]))
      // tab B never saw tab A's click: its history ends at the component
      const tabB = await sendTurn(server.url, 't1', [userMessage('u1', '/lost'), first.message as UIMessage, click('ub')])
      expect(tabB.text).toBe('That was already answered.')
      expect(tabB.chatrail?.trace).toMatchObject({ outcome: 'refused' })
      expect(agent.calls()).toBe(0)
    } finally {
      await server.close()
      await store.close()
    }
  })
})

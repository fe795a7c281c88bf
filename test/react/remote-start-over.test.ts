import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { commandRoute, defineChat, eventRoute, type ChatDefinition } from '../../src/index.js'
import { countingAgent, listen, type Listening } from '../server/support/harness.js'

/**
 * Start over in remote mode: the server's `data-chatrail` part (and its GET) name the restart event;
 * the binding mirrors it, and falls back to the definition for a server that doesn't.
 */
function bookingWithRestart(adapter: AdapterFactory): ChatDefinition {
  return defineChat({
    id: 'remote-restart',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: {
        idle: { on: { start: 'booked' } },
        booked: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Booked.' }),
        eventRoute({ id: 'start-over', uiEvent: 'start-over', restart: true, states: ['booked'], response: 'Starting over.' }),
      ],
    },
  })
}

let store: ConversationStore
let agent: ReturnType<typeof countingAgent>
let http: Listening

beforeEach(async () => {
  store = memoryStore()
  agent = countingAgent()
  http = await listen(createChatHandler({ definition: bookingWithRestart(agent.adapter), store, authenticate: 'none' }))
})
afterEach(async () => {
  await http.close()
  await store.close()
})

describe('remote binding: Start over', () => {
  it('mirrors `restart` in a final state that offers one, and sending it restarts on the server', async () => {
    const binding = createRemoteChatBinding(bookingWithRestart(serverSideAgent), { api: http.url, conversationId: 'restart-1' })
    const off = binding.subscribe(() => undefined)
    expect(binding.getState().snapshot.restart).toBeUndefined()
    await binding.controller.send('/start')
    expect(binding.getState().snapshot).toMatchObject({ state: 'booked', final: true, restart: 'start-over' })
    await binding.sendEvent('start-over', 'Start over')
    expect(binding.getState().snapshot).toMatchObject({ state: 'idle', final: false })
    expect(binding.getState().snapshot.restart).toBeUndefined()
    expect(binding.getState().traces.at(-1)).toMatchObject({ reason: 'restart', fromState: 'booked', toState: 'idle', routeId: 'start-over' })
    expect(binding.getState().chat.messages.at(-1)?.content).toBe('Starting over.')
    expect(agent.calls()).toBe(0)
    off()
  })

  it('the server names the restart event in the data-chatrail part and in GET, and the binding prefers it', async () => {
    const body = { id: 'restart-2', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/start' }] }] }
    const stream = await (await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).text()
    const parts = stream.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as { type: string; data?: { restart?: string } })
    expect(parts.filter((part) => part.type === 'data-chatrail').at(-1)?.data?.restart).toBe('start-over')
    const page = (await (await fetch(`${http.url}?id=restart-2`)).json()) as { chatrail: { state: string; restart?: string } }
    expect(page.chatrail).toMatchObject({ state: 'booked', restart: 'start-over' })

    // A page whose copy of the definition lacks the restart route still offers what the server says.
    const withoutRestart = defineChat({ id: 'remote-restart', chat: { adapter: serverSideAgent }, conversation: { initial: 'idle', states: { idle: { on: { start: 'booked' } }, booked: { final: true } }, routes: [commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Booked.' })] } })
    const binding = createRemoteChatBinding(withoutRestart, { api: http.url, conversationId: 'restart-3' })
    const off = binding.subscribe(() => undefined)
    await binding.controller.send('/start')
    expect(binding.getState().snapshot).toMatchObject({ state: 'booked', restart: 'start-over' })
    off()
  })
})

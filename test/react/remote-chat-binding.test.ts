import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createRemoteChatBinding } from '../../src/view/remote-chat-binding.js'
import { serverSideAgent } from '../../src/view/server-side-agent.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { countingAgent, eventually, listen, type Listening } from '../server/support/harness.js'
import { remoteDefinition } from './remote-page/remote-definition.js'

/**
 * The remote binding without React (it is a plain external store): restore on first subscribe,
 * the mirrored snapshot, stop reaching the server, a dialog answer the server refuses.
 */

let store: ConversationStore
let agent: ReturnType<typeof countingAgent>
let http: Listening
const posted: unknown[] = []
const recordingFetch: typeof fetch = async (input, init) => {
  if (init?.method === 'POST') posted.push(JSON.parse(String(init.body)))
  return fetch(input, init)
}

beforeEach(async () => {
  store = memoryStore()
  agent = countingAgent('I am the agent.')
  posted.length = 0
  http = await listen(createChatHandler({ definition: remoteDefinition(agent.adapter), store, authenticate: 'none' }))
})
afterEach(async () => {
  await http.close()
  await store.close()
})

const bind = (conversationId: string) => createRemoteChatBinding(remoteDefinition(serverSideAgent), { api: http.url, conversationId, fetch: recordingFetch })

describe('createRemoteChatBinding', () => {
  it('mirrors the server: the snapshot and traces follow data-chatrail, final from the definition', async () => {
    const binding = bind('r1')
    const off = binding.subscribe(() => undefined)
    expect(binding.getState().snapshot).toMatchObject({ state: 'idle', events: ['start'], final: false })
    await binding.controller.send('/start')
    expect(binding.getState().snapshot).toMatchObject({ state: 'asking', events: ['date', 'cancel'] })
    await binding.sendEvent('book_tomorrow', 'Tomorrow')
    expect(binding.getState().snapshot).toMatchObject({ state: 'booked', final: true })
    expect(binding.getState().traces.map((trace) => trace.kind)).toEqual(['deterministic', 'deterministic'])
    expect(agent.calls()).toBe(0)
    off()
  })

  it('restores the stored conversation and its state when the first subscriber arrives', async () => {
    const first = bind('r2')
    const offFirst = first.subscribe(() => undefined)
    await first.controller.send('/start')
    offFirst()
    const reloaded = bind('r2')
    const off = reloaded.subscribe(() => undefined)
    await eventually(async () => reloaded.getState().chat.messages.length === 2)
    expect(reloaded.getState().chat.messages.map((message) => [message.role, message.content])).toEqual([['user', '/start'], ['assistant', 'Which day?']])
    expect(reloaded.getState().snapshot.state).toBe('asking')
    off()
  })

  it('regenerate of a restored answer runs the turn again on the server (regenerate-message)', async () => {
    const first = bind('r5')
    const offFirst = first.subscribe(() => undefined)
    await first.controller.send('hello')
    offFirst()
    expect(agent.calls()).toBe(1)
    const reloaded = bind('r5')
    const off = reloaded.subscribe(() => undefined)
    await eventually(async () => reloaded.getState().chat.messages.length === 2)
    await reloaded.controller.regenerate()
    expect(posted.at(-1)).toMatchObject({ id: 'r5', trigger: 'regenerate-message' })
    expect(agent.calls()).toBe(2)
    expect(reloaded.getState().chat.messages.at(-1)?.content).toBe('I am the agent.')
    off()
  })

  it('stop() ends the client stream and tells the server to stop the turn', async () => {
    const open = agent.hold()
    const binding = bind('r3')
    const off = binding.subscribe(() => undefined)
    const sending = binding.controller.send('tell me a long story')
    await eventually(async () => binding.getState().chat.messages.at(-1)?.content === 'I')
    binding.stop()
    await sending
    await eventually(async () => posted.some((body) => (body as { action?: string }).action === 'stop'))
    expect(posted.at(-1)).toEqual({ id: 'r3', action: 'stop' })
    expect(binding.getState().stopped.size).toBe(1)
    open()
    off()
  })

  it('a dialog answer the server does not deliver rejects and leaves the card answerable', async () => {
    const binding = bind('r4')
    const off = binding.subscribe(() => undefined)
    await binding.controller.send('/start')
    await expect(binding.answerDialog('toolu_none', { kind: 'plan', approved: true })).rejects.toThrow()
    expect(posted.at(-1)).toEqual({ id: 'r4', action: 'answer-dialog', toolId: 'toolu_none', answer: { kind: 'plan', approved: true } })
    expect(binding.getState().dialogLog.every((entry) => !entry.answering)).toBe(true)
    off()
  })
})

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ComponentPart } from '../../src/contract/component-part.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { createChatView, createRemoteChatBinding, loadComponentRules, serverSideAgent } from '../../src/view/index.js'
import type { ChatView } from '../../src/view/index.js'
import { countingAgent, eventually, listen, type Listening } from '../server/support/harness.js'
import { remoteDefinition } from '../react/remote-page/remote-definition.js'
import { choiceChat } from './component-choice-chat.js'

/**
 * The view store over a remote binding (a chatrail server over HTTP): the same snapshot and actions
 * as over a local session, the state being the server's; a component answered before a reload
 * stays answered after it.
 */

let store: ConversationStore
let agent: ReturnType<typeof countingAgent>
let http: Listening
let choices: Listening
const posted: unknown[] = []
const recordingFetch: typeof fetch = async (input, init) => {
  if (init?.method === 'POST') posted.push(JSON.parse(String(init.body)))
  return fetch(input, init)
}
const views: ChatView[] = []

beforeAll(async () => { await loadComponentRules() })

beforeEach(async () => {
  store = memoryStore()
  agent = countingAgent('I am the agent.')
  posted.length = 0
  http = await listen(createChatHandler({ definition: remoteDefinition(agent.adapter), store, authenticate: 'none' }))
  choices = await listen(createChatHandler({ definition: choiceChat(agent.adapter), store, authenticate: 'none' }))
})
afterEach(async () => {
  for (const view of views.splice(0)) view.dispose()
  await http.close()
  await choices.close()
  await store.close()
})

function remoteView(conversationId: string, api = http.url, definition = remoteDefinition(serverSideAgent)): ChatView {
  const view = createChatView(createRemoteChatBinding(definition, { api, conversationId, fetch: recordingFetch }))
  views.push(view)
  view.subscribe(() => undefined)
  return view
}

describe('createChatView over a chatrail server', () => {
  it('mirrors the server\'s state into the badge, the event bar and the lifecycle targets', async () => {
    const view = remoteView('v1')
    expect(view.getSnapshot().badge).toEqual({ state: 'idle', name: 'Idle', words: 'Ready' })
    await view.send('/start')
    const snapshot = view.getSnapshot()
    expect(snapshot.badge.state).toBe('asking')
    expect(snapshot.eventBar.buttons.map((button) => button.uiEvent)).toEqual(['cancel', 'book_tomorrow'])
    expect(snapshot.lifecycle.assistantId).toBe(snapshot.messages.at(-1)?.id)
    await view.sendEvent('book_tomorrow', 'Tomorrow')
    expect(view.getSnapshot().eventBar.mode).toBe('end')
    expect(view.getSnapshot().badge.words).toBe('Finished')
    expect(agent.calls()).toBe(0)
  })

  it('stop tells the server and marks the reply stopped; retry asks the server again', async () => {
    const open = agent.hold()
    const view = remoteView('v2')
    const sending = view.send('tell me a long story')
    await eventually(async () => view.getSnapshot().messages.at(-1)?.content === 'I')
    view.stop()
    await sending
    await eventually(async () => posted.some((body) => (body as { action?: string }).action === 'stop'))
    expect(view.getSnapshot().stopped.size).toBe(1)
    open()
    await view.regenerate()
    expect(posted.at(-1)).toMatchObject({ id: 'v2', trigger: 'regenerate-message' })
    expect(view.getSnapshot().messages.at(-1)?.content).toBe('I am the agent.')
  })

  it('a dialog answer the server refuses rejects, and the dialog log is not left answering', async () => {
    const view = remoteView('v3')
    await view.send('/start')
    await expect(view.answerDialog('toolu_none', { kind: 'plan', approved: true })).rejects.toThrow()
    expect(view.getSnapshot().dialogLog.every((entry) => !entry.answering)).toBe(true)
  })

  it('switchVersion switches the server\'s version of a regenerated answer', async () => {
    const view = remoteView('v4')
    await view.send('hello')
    await view.regenerate()
    const reply = view.getSnapshot().messages.at(-1)
    await eventually(async () => view.getSnapshot().versions.get(reply?.id as string)?.count === 2)
    expect(view.switchVersion(reply?.id as string, 0)).toBe(true)
    await eventually(async () => posted.some((body) => (body as { action?: string }).action === 'switch-version'))
  })

  it('a component answered before a reload stays answered after it: a click there sends nothing', async () => {
    const first = remoteView('v5', choices.url, choiceChat(serverSideAgent))
    await first.send('/pick')
    const pending = first.getSnapshot().pendingComponent
    const { messageId, part } = pending as { messageId: string; part: ComponentPart }
    expect(await first.interact(messageId, part, 'select', 'refund')).toBe(true)
    expect(first.getSnapshot().messages.at(-1)?.content).toBe('Refund on its way.')
    const reloaded = remoteView('v5', choices.url, choiceChat(serverSideAgent))
    await eventually(async () => reloaded.getSnapshot().messages.length === 4)
    const restored = reloaded.getSnapshot().messages[1]
    expect(reloaded.getSnapshot().pendingComponent).toBeUndefined()
    const answered = [...reloaded.getSnapshot().componentAnswers.keys()]
    expect(answered).toHaveLength(1)
    const before = posted.length
    expect(await reloaded.interact(restored?.id as string, part, 'select', 'reship')).toBe(false)
    expect(posted.length).toBe(before)
  })
})

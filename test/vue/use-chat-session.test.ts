// @vitest-environment happy-dom
import { createApp, effectScope, h, nextTick, shallowRef } from 'vue'
import type { App } from 'vue'
import { afterEach, describe, expect, it } from 'vitest'
import { ChatSession, StateBadge, useChatSession } from '../../renderers/vue/index.js'
import { createChatBinding, createChatView } from '../../src/view/index.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { countingAdapter, supportChat } from '../react/support-chat.js'

// chatrail/vue's composable with Vue's own API (an effect scope, createApp on happy-dom): the refs
// follow the view store, the scope's end lets go of it, and the components render what it decides.

const quietly = { lint: false }
const settle = async (): Promise<void> => { for (let i = 0; i < 5; i += 1) await nextTick() }

let app: App | undefined
afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.innerHTML = ''
})

function mount(render: () => ReturnType<typeof h>): HTMLElement {
  const root = document.createElement('div')
  document.body.append(root)
  app = createApp({ render })
  app.mount(root)
  return root
}

describe('useChatSession (chatrail/vue)', () => {
  it('its snapshot ref follows the view: a matched command advances the state without the agent', async () => {
    const adapter = countingAdapter()
    const scope = effectScope()
    const chat = scope.run(() => useChatSession(supportChat(adapter), quietly))
    if (chat === undefined) throw new Error('no chat')
    expect(chat.snapshot.value.badge).toMatchObject({ state: 'welcome', words: 'Ready' })
    await chat.send('/start')
    expect(chat.snapshot.value.badge.state).toBe('triage')
    expect(chat.messages.value.map((message) => message.content)).toEqual(['/start', 'How can I help? Describe the problem.'])
    expect(chat.status.value).toBe('idle')
    expect(chat.snapshot.value.eventBar.buttons.map((button) => button.uiEvent)).toEqual(['ESCALATE', 'RESOLVE'])
    expect(adapter.calls()).toBe(0)
    scope.stop()
  })

  it('the snapshot is the view\'s own object: nothing is copied or made deeply reactive', async () => {
    const scope = effectScope()
    const definition = supportChat(countingAdapter())
    const view = createChatView(createChatBinding(definition, quietly))
    const chat = scope.run(() => useChatSession(view))
    expect(chat?.snapshot.value).toBe(view.getSnapshot())
    await chat?.send('/start')
    expect(chat?.snapshot.value).toBe(view.getSnapshot())
    scope.stop()
    view.dispose()
  })

  it('the end of its scope unsubscribes and releases a session it created (the live agent loses its subscriber)', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const scope = effectScope()
    const chat = scope.run(() => useChatSession(supportChat(agent), quietly))
    expect(agent.subscribers()).toBe(1)
    scope.stop()
    await settle()
    expect(agent.subscribers()).toBe(0)
    const before = chat?.snapshot.value
    await chat?.view.binding.controller.send('/start').catch(() => undefined)
    expect(chat?.snapshot.value).toBe(before)
  })

  it('a view handed in stays the caller\'s: the scope ends, the view and its session live on', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const view = createChatView(createChatBinding(supportChat(agent), quietly))
    const off = view.subscribe(() => undefined)
    const scope = effectScope()
    scope.run(() => useChatSession(view))
    scope.stop()
    await settle()
    expect(agent.subscribers()).toBe(1)
    await view.send('/start')
    expect(view.getSnapshot().badge.state).toBe('triage')
    off()
    view.dispose()
  })

  it('a binding handed in stays the caller\'s too: the scope\'s end does not release its session', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    const binding = createChatBinding(supportChat(agent), quietly)
    const scope = effectScope()
    const chat = scope.run(() => useChatSession(binding))
    expect(agent.subscribers()).toBe(1)
    scope.stop()
    await settle()
    // the session lives on: a new view over the same binding answers
    const view = createChatView(binding)
    const off = view.subscribe(() => undefined)
    await view.send('/start')
    expect(view.getSnapshot().badge.state).toBe('triage')
    expect(chat?.view.binding).toBe(binding)
    off()
    view.dispose()
  })

  it('<ChatSession> renders chatrail/react\'s markup: the named region, the status line, the first screen\'s chips; a chip sends', async () => {
    const adapter = countingAdapter()
    const root = mount(() => h(ChatSession, { definition: supportChat(adapter), options: quietly, title: 'Support', stateLabels: { welcome: 'Hello' } }))
    await settle()
    const chat = root.querySelector('section[data-chatrail-chat]')
    expect(chat?.getAttribute('aria-label')).toBe('Support')
    expect(root.querySelector('[data-chatrail-state-badge]')?.textContent).toBe('Hello Ready')
    expect(root.querySelector('[role="log"]')?.getAttribute('aria-label')).toBe('Messages')
    const chip = root.querySelector<HTMLButtonElement>('[data-chatrail-suggestion="command"]')
    expect(chip?.textContent).toContain('/start')
    chip?.click()
    await expect.poll(() => root.querySelectorAll('[data-chatrail-message]').length).toBe(2)
    expect(root.querySelector('[data-chatrail-state-badge]')?.getAttribute('data-chatrail-state')).toBe('triage')
    expect([...root.querySelectorAll('[data-chatrail-event-button]')].map((button) => button.textContent)).toEqual(['Escalate', 'Resolve'])
    expect(root.querySelector('[data-chatrail-welcome]')).toBeNull()
    expect(adapter.calls()).toBe(0)
  })

  it('the composer sends what is typed (Enter), through the controller\'s input', async () => {
    const adapter = countingAdapter('agent words')
    const root = mount(() => h(ChatSession, { definition: supportChat(adapter), options: quietly }))
    await settle()
    const box = root.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
    if (box === null) throw new Error('no composer')
    box.value = 'my parcel'
    box.dispatchEvent(new Event('input'))
    await settle()
    expect(root.querySelector<HTMLButtonElement>('[data-chatrail-send]')?.disabled).toBe(false)
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await expect.poll(() => root.querySelector('[data-chatrail-message][data-chatrail-role="assistant"]')?.textContent ?? '').toContain('agent words')
    expect(adapter.calls()).toBe(1)
    expect(box.value).toBe('')
  })

  it('a new definition revision mounts a new session (as a new key would)', async () => {
    const adapter = countingAdapter()
    const definition = shallowRef(supportChat(adapter))
    const root = mount(() => h(ChatSession, { definition: definition.value, options: quietly }))
    await settle()
    root.querySelector<HTMLButtonElement>('[data-chatrail-suggestion="command"]')?.click()
    await expect.poll(() => root.querySelectorAll('[data-chatrail-message]').length).toBe(2)
    definition.value = supportChat(adapter, { revision: 2 })
    await settle()
    expect(root.querySelectorAll('[data-chatrail-message]').length).toBe(0)
    expect(root.querySelector('[data-chatrail-state-badge]')?.getAttribute('data-chatrail-state')).toBe('welcome')
  })

  it('the same definition id and revision in a new object keeps the session and uses its agent from the next turn', async () => {
    const first = countingAdapter('first agent')
    const second = countingAdapter('second agent')
    const definition = shallowRef(supportChat(first))
    const root = mount(() => h(ChatSession, { definition: definition.value, options: quietly }))
    await settle()
    root.querySelector<HTMLButtonElement>('[data-chatrail-suggestion="command"]')?.click()
    await expect.poll(() => root.querySelectorAll('[data-chatrail-message]').length).toBe(2)
    definition.value = supportChat(second)
    await settle()
    const box = root.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
    if (box === null) throw new Error('no composer')
    box.value = 'my parcel'
    box.dispatchEvent(new Event('input'))
    await settle()
    box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
    await expect.poll(() => [...root.querySelectorAll('[data-chatrail-message][data-chatrail-role="assistant"]')].at(-1)?.textContent ?? '').toContain('second agent')
    // the conversation went on: the command's turn is still there, in the state it left
    expect(root.querySelectorAll('[data-chatrail-message]').length).toBe(4)
    expect(root.querySelector('[data-chatrail-state-badge]')?.getAttribute('data-chatrail-state')).toBe('triage')
    expect([first.calls(), second.calls()]).toEqual([0, 1])
  })

  it('a part outside <ChatSession> without a chat fails with a clear error', () => {
    const errors: unknown[] = []
    const root = document.createElement('div')
    app = createApp({ render: () => h(StateBadge) })
    app.config.errorHandler = (error) => { errors.push(error) }
    // Vue also warns that the part rendered nothing; the error is what this checks
    app.config.warnHandler = () => undefined
    app.mount(root)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'NO_CHAT_SESSION', message: '<StateBadge> has no chat' })
  })
})

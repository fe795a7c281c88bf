import { describe, expect, it } from 'vitest'
import { chatReducer, ConfigError, createChatController, initialChatState } from '../../src/controller/index.js'
import type { ChatConfig, ChatState, Message } from '../../src/contract/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { setup } from './harness.js'

describe('state, subscribe and configuration', () => {
  it('starts from initialMessages (as given) with idle status, empty input, no error, zero usage', () => {
    const initial: Message[] = [{ id: 'x', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(0) }]
    const { controller } = setup([], { initialMessages: initial })
    expect(controller.getState()).toEqual({ messages: initial, status: 'idle', input: '', error: null, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } })
    expect(controller.getState().messages).toBe(initial)
  })

  it('replaces the state object on every change and notifies listeners synchronously, argument-free', async () => {
    const { controller } = setup([[{ type: 'text', content: 'a' }, { type: 'text', content: 'b' }]])
    const snapshots: ChatState[] = []
    const args: number[] = []
    controller.subscribe((...received: unknown[]) => {
      args.push(received.length)
      snapshots.push(controller.getState())
    })
    await controller.send('q')
    expect(snapshots.length).toBeGreaterThanOrEqual(4)
    expect(new Set(snapshots).size).toBe(snapshots.length)
    expect(args.every((n) => n === 0)).toBe(true)
    expect(snapshots.map((s) => s.messages[1]?.content)).toEqual(['', 'a', 'ab', 'ab'])
  })

  it('never mutates a published state', async () => {
    const { controller } = setup(['answer'])
    controller.setInput('draft')
    const before = controller.getState()
    const frozen = JSON.stringify(before)
    await controller.send('q')
    expect(JSON.stringify(before)).toBe(frozen)
  })

  it('unsubscribe stops notifications; the same listener twice is two subscriptions', () => {
    const { controller } = setup([])
    let calls = 0
    const listener = (): void => void (calls += 1)
    const off1 = controller.subscribe(listener)
    const off2 = controller.subscribe(listener)
    controller.setInput('a')
    off1()
    controller.setInput('b')
    off2()
    controller.setInput('c')
    expect(calls).toBe(3)
  })

  it('setInput and setMessages replace one field each; an unchanged input does not notify', () => {
    const { controller } = setup([])
    let calls = 0
    controller.subscribe(() => void (calls += 1))
    controller.setInput('x')
    controller.setInput('x')
    const messages: Message[] = [{ id: 'm', role: 'assistant', content: 'set', status: 'complete', createdAt: new Date(0) }]
    controller.setMessages(messages)
    expect(calls).toBe(2)
    expect(controller.getState()).toMatchObject({ input: 'x', messages, status: 'idle' })
  })

  it('updateConfig keeps the controller and state, and uses the new adapter from the next turn', async () => {
    const { controller, adapter } = setup(['from first adapter'])
    await controller.send('one')
    const second = scriptedAdapter(['from second adapter'])
    controller.updateConfig({ adapter: second, systemPrompt: 'New prompt.' })
    await controller.send('two')
    expect(adapter.calls).toHaveLength(1)
    expect(second.calls).toHaveLength(1)
    expect(second.requests[0]?.context?.systemPrompt).toBe('New prompt.')
    expect(controller.getState().messages.map((m) => m.content)).toEqual(['one', 'from first adapter', 'two', 'from second adapter'])
  })

  it('runs skill activation again only when skills or the system prompt change', async () => {
    let activations = 0
    const skills = [{ name: 's', description: 'd', systemPrompt: 'p', onActivate: () => ((activations += 1), {}) }]
    const { controller } = setup(['a'], { skills })
    controller.updateConfig({ temperature: 0.5 })
    controller.updateConfig({ skills })
    expect(activations).toBe(1)
    controller.updateConfig({ skills: [...skills] })
    expect(activations).toBe(2)
  })

  it('emits llm:start, llm:first-token and llm:end with clock-based durations', async () => {
    const { controller, events } = setup([[{ type: 'text', content: 'hi' }, { type: 'usage', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } }]])
    await controller.send('q')
    expect(events).toEqual([
      { type: 'llm:start', messageCount: 2 },
      { type: 'llm:first-token', latencyMs: 1000 },
      { type: 'llm:end', content: 'hi', usage: { promptTokens: 3, completionTokens: 1 }, durationMs: 2000 },
    ])
  })

  it('honours observers supplied later through updateConfig', async () => {
    const { controller } = setup(['x'])
    const seen: string[] = []
    controller.updateConfig({ observers: [{ name: 'late', on: (e) => void seen.push(e.type) }] })
    await controller.send('q')
    expect(seen).toContain('llm:end')
  })

  it('rejects a config without an adapter with a ConfigError naming the fix', () => {
    let thrown: unknown
    try {
      createChatController({} as ChatConfig)
    } catch (error) {
      thrown = error
    }
    expect(ConfigError.isInstance(thrown)).toBe(true)
    expect((thrown as ConfigError).code).toBe('AK_ADAPTER_MISSING')
    expect((thrown as ConfigError).hint).toMatch(/scriptedAdapter/)
  })
})

describe('chatReducer', () => {
  it('is pure: returns the same object for a no-op and never mutates its input', () => {
    const state = initialChatState([])
    const frozen = JSON.stringify(state)
    expect(chatReducer(state, { type: 'input-set', input: '' })).toBe(state)
    expect(chatReducer(state, { type: 'message-patched', id: 'missing', patch: { content: 'x' } })).toBe(state)
    expect(chatReducer(state, { type: 'turn-stopped', reason: 'r' })).toBe(state)
    const next = chatReducer(state, { type: 'input-set', input: 'typed' })
    expect(next).not.toBe(state)
    expect(JSON.stringify(state)).toBe(frozen)
  })
})

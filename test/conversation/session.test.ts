import { describe, expect, it, vi } from 'vitest'
import { ChatrailConfigError, commandRoute, createChatSession, defineChat, uiEventMessageMetadata, uiEventOf } from '../../src/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { assistant, turn, user } from './helpers.js'

describe('session', () => {
  it('snapshot identity changes only on change; subscribers hear each change once', async () => {
    const session = createChatSession(createSupportBot())
    const first = session.getSnapshot()
    expect(session.getSnapshot()).toBe(first)
    const listener = vi.fn()
    const unsubscribe = session.subscribe(listener)
    await turn(session.chat.adapter, [user('hi', 'g')]) // greeting → greeting, same context: no change
    expect(session.getSnapshot()).toBe(first)
    expect(listener).not.toHaveBeenCalled()
    const start = user('/start', 's')
    await turn(session.chat.adapter, [start])
    expect(listener).toHaveBeenCalledTimes(1)
    const second = session.getSnapshot()
    expect(second).not.toBe(first)
    expect(Object.isFrozen(second)).toBe(true)
    session.sync([start, assistant('x', 'a')])
    expect(session.getSnapshot()).toBe(second)
    expect(listener).toHaveBeenCalledTimes(1)
    unsubscribe()
    session.sync([])
    expect(listener).toHaveBeenCalledTimes(1)
    expect(session.getSnapshot().state).toBe('greeting')
  })

  it('defaults: a UUID session id, turn ids derived from it; chat is stable until updateChat', async () => {
    const session = createChatSession(createSupportBot())
    expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    const chat = session.chat
    expect(session.chat).toBe(chat)
    await turn(session.chat.adapter, [user('/start')])
    expect(session.traces()[0]?.turnId).toBe(`${session.sessionId}:1`)
    const model = scriptedAdapter(['new agent'])
    session.updateChat({ ...createSupportBot(model).chat, adapter: model })
    expect(session.chat).not.toBe(chat)
    expect(session.getSnapshot().state).toBe('collecting')
    await turn(session.chat.adapter, [user('where is it?')])
    expect(model.calls).toHaveLength(1)
  })

  it('accepts a plain definition object (validated on the way in)', () => {
    const plain = {
      id: 'plain',
      chat: { adapter: scriptedAdapter(['x']) },
      conversation: { initial: 'a', states: { a: { on: { go: 'a' } } }, routes: [commandRoute({ id: 'go', command: '/go', event: 'go', response: 'ok' })] },
    }
    expect(createChatSession(plain).getSnapshot().state).toBe('a')
    expect(() => createChatSession({ ...plain, conversation: { ...plain.conversation, initial: 'b' } })).toThrow(ChatrailConfigError)
  })

  it('start sets the first state and context', () => {
    const session = createChatSession(createSupportBot(), { start: { state: 'confirming', context: { orderNumber: '12345' } } })
    expect(session.getSnapshot()).toMatchObject({ state: 'confirming', context: { orderNumber: '12345' }, events: ['confirm', 'order', 'change', 'escalate', 'cancel'] })
  })

  it('uiEventMessageMetadata and uiEventOf round-trip; other metadata is not an event', () => {
    expect(uiEventOf({ metadata: uiEventMessageMetadata('confirm') })).toBe('confirm')
    expect(uiEventOf({ metadata: { chatrail: { event: 3 } } })).toBeUndefined()
    expect(uiEventOf({})).toBeUndefined()
    // an answer's metadata.chatrail is a decision record, not a UI event
    expect(uiEventOf({ role: 'assistant', metadata: { chatrail: { event: 'confirm' } } })).toBeUndefined()
    expect(uiEventOf({ role: 'user', metadata: uiEventMessageMetadata('confirm') })).toBe('confirm')
  })
})

describe('replay validity', () => {
  it('a cached decision that no longer applies is forgotten and the message resolved afresh (no error to retry past)', async () => {
    const response = vi.fn((_input: string, ctx: { context: { vip?: boolean } }) => (ctx.context.vip ? 'VIP lane' : 'Normal lane'))
    const def = defineChat<{ vip?: boolean }>({
      id: 'validity',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: {
        initial: 'a',
        context: {},
        states: { a: { on: { vip: 'a', go: { target: 'b', guard: ({ context }) => context.vip === true } } }, b: { on: { back: 'a' } } },
        routes: [
          commandRoute({ id: 'vip', command: '/vip', event: 'vip', response: { text: 'noted', assign: { vip: true } } }),
          commandRoute({ id: 'go', command: '/go', event: 'go', response }),
        ],
      },
    })
    const session = createChatSession(def, { lint: false })
    const u1 = user('/vip', 'u1')
    const u2 = user('/go', 'u2')
    await turn(session.chat.adapter, [u1])
    await turn(session.chat.adapter, [u1, assistant('noted', 'a1'), u2])
    expect(session.getSnapshot().state).toBe('b')
    // The host rewrites the first message (same state before /go, but no vip in the context now).
    const rewritten = [{ ...u1, content: 'hello' }, assistant('agent', 'a1'), u2]
    session.sync(rewritten, { full: true })
    expect(session.getSnapshot().state).toBe('a')
    // Regenerating /go: the cached decision's guard now refuses, so it is forgotten and /go resolved afresh.
    const chunks = await turn(session.chat.adapter, rewritten)
    expect(chunks[0]?.type).toBe('error')
    expect(session.traces().at(-1)).toMatchObject({ routeId: 'go', replayed: false, outcome: 'error', reason: 'transition-refused:guard-refused' })
    expect(response).toHaveBeenCalledTimes(1)
  })
})

import { describe, expect, it } from 'vitest'
import { ChatrailConfigError, createChatSession, defineChat, textRoute, toMermaid } from '../../src/index.js'
import { lintDefinition, scriptedAdapter } from '../../src/testing/index.js'
import { drain, textOf, user } from './helpers.js'

// AgentsKit Chat lets a definition leave out its conversation: a plain agentic chat that still
// has sessions, traces and persistence. chatrail fills in one state, `chat`, and no routes.
describe('a definition without a conversation', () => {
  it('answers every message through the adapter, in state "chat", with a trace per turn', async () => {
    const model = scriptedAdapter(['first answer', 'second answer'])
    const session = createChatSession(defineChat({ id: 'plain', chat: { adapter: model } }))
    expect(session.getSnapshot().state).toBe('chat')
    const first = user('/start')
    expect(textOf(await drain(session.chat.adapter.createSource({ messages: [first] })))).toBe('first answer')
    const second = user('hello')
    expect(textOf(await drain(session.chat.adapter.createSource({ messages: [first, second] })))).toBe('second answer')
    expect(model.requests).toHaveLength(2)
    expect(session.traces().map((t) => [t.kind, t.fromState, t.toState])).toEqual([
      ['agentic', 'chat', 'chat'],
      ['agentic', 'chat', 'chat'],
    ])
  })

  it('is frozen like any definition and has no routes', () => {
    const def = defineChat({ id: 'plain', chat: { adapter: scriptedAdapter([]) } })
    expect(def.conversation.initial).toBe('chat')
    expect(Object.keys(def.conversation.states)).toEqual(['chat'])
    expect(def.conversation.routes).toEqual([])
    expect(Object.isFrozen(def.conversation)).toBe(true)
  })

  it('without an adapter is a ChatrailConfigError at chat.adapter', () => {
    let error: unknown
    try {
      defineChat({ id: 'plain', chat: {} })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ChatrailConfigError)
    expect((error as ChatrailConfigError).issues.map((issue) => [issue.code, issue.path.join('.')])).toEqual([['no_agentic_answer', 'chat.adapter']])
  })

  it('lints clean (one state and no routes is not a dead end) and draws one state', () => {
    const input = { id: 'plain', chat: { adapter: scriptedAdapter([]) } }
    expect(lintDefinition(input)).toEqual([])
    expect(lintDefinition(defineChat(input))).toEqual([])
    expect(toMermaid(input)).toContain('chat')
  })

  it('a one-state machine with routes still gets the dead-end warning', () => {
    const warnings = lintDefinition(defineChat({
      id: 'stuck',
      chat: { adapter: scriptedAdapter([]) },
      conversation: { initial: 'a', states: { a: {} }, routes: [textRoute({ id: 'r', text: 'x', response: 'x' })] },
    }))
    expect(warnings.map((w) => w.code)).toContain('dead_end_state')
  })
})

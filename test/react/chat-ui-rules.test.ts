import { describe, expect, it } from 'vitest'
import { supportBot } from '../../examples/support-bot/definition.js'
import { suggestionsOf } from '../../src/view/suggestions.js'
import { statusWordsOf } from '../../renderers/react/state-badge.js'
import { failureOf } from '../../renderers/react/error-banner-content.js'
import { agentFailedIn } from '../../src/view/agent-failure.js'
import { eventButtonsOf } from '../../src/view/event-routes.js'
import { layoutStream } from '../../src/view/stream-layout.js'
import { observePending } from '../../src/view/dialog-log.js'
import type { TurnTrace } from '../../src/conversation/index.js'
import { ChatrailError, createChatSession } from '../../src/index.js'
import { message, planDialog, questionDialog } from './dialogs.js'

// The events the state takes (its own and the conversation-level ones): what a session's snapshot lists.
const eventsOf = (state: string): readonly string[] => createChatSession(supportBot, { lint: false, start: { state } }).getSnapshot().events

describe('suggestionsOf (the support-bot definition)', () => {
  const routes = supportBot.conversation.routes
  it('the commands and UI events allowed in the state, with their descriptions', () => {
    expect(suggestionsOf(routes, 'greeting', eventsOf('greeting'), eventButtonsOf)).toEqual([
      { kind: 'command', text: '/help', description: 'List what you can do here.' },
      { kind: 'command', text: '/start', description: 'Start an order lookup.' },
      { kind: 'event', uiEvent: 'escalate', event: 'escalate', description: 'Hand the conversation to a person.' },
    ])
    // `/human` fires what the `escalate` button fires: one chip for it, the button (issue #31 item 12).
    // collecting has no `start` event: no /start chip; `cancel` is allowed there.
    expect(suggestionsOf(routes, 'collecting', eventsOf('collecting'), eventButtonsOf).map((s) => (s.kind === 'command' ? s.text : s.uiEvent)))
      .toEqual(['/help', '/cancel', 'escalate'])
    // resolved is final: the reply-only /help and the Start over command and button remain.
    expect(suggestionsOf(routes, 'resolved', eventsOf('resolved'), eventButtonsOf).map((s) => (s.kind === 'command' ? s.text : s.uiEvent))).toEqual(['/help', '/start', 'start-over'])
  })
})

describe('statusWordsOf', () => {
  it('says what the user needs, never a raw state or a turn kind', () => {
    expect(statusWordsOf('idle', undefined, false)).toBe('Ready')
    expect(statusWordsOf('streaming', undefined, false)).toBe('Working…')
    expect(statusWordsOf('error', undefined, false)).toBe('Something went wrong')
    expect(statusWordsOf('idle', undefined, true)).toBe('Finished')
    expect(statusWordsOf('idle', undefined, false, true)).toBe('Something went wrong')
    // A pending dialog holds the turn open (streaming), but what matters is the answer.
    expect(statusWordsOf('streaming', questionDialog('t1'), false)).toBe('Waiting for your answer')
    expect(statusWordsOf('streaming', planDialog('p1', '# P'), false)).toBe('Waiting for your review')
    expect(statusWordsOf('streaming', questionDialog('t1', { answerable: false }), false)).toBe('Waiting for an answer in the agent’s window')
  })
})

describe('failureOf', () => {
  const trace = (extra: Partial<TurnTrace>): TurnTrace => ({ kind: 'agentic', outcome: 'ok', fromState: 's', toState: 's', sessionId: 'x', turnId: 't', replayed: false, at: '', durationMs: 0, ...extra })
  it('the chat error first, else a fallback that answered for a failed agent (not for a missing one)', () => {
    const error = new Error('model unavailable')
    expect(failureOf(error, [], agentFailedIn)).toEqual({ key: error, message: 'The reply failed.', cause: 'model unavailable', hint: 'Retry; if it keeps failing, rephrase your message or start over.' })
    // A ChatrailError's code and hint are the cause and what to do.
    const coded = new ChatrailError({ code: 'AGENT_EXITED', message: 'Codex exited with code 1', hint: 'Check that codex is logged in.' })
    expect(failureOf(coded, [], agentFailedIn)).toMatchObject({ message: 'The reply failed.', cause: 'Codex exited with code 1 (AGENT_EXITED)', hint: 'Check that codex is logged in.' })
    const fallback = trace({ kind: 'fallback', errorClass: 'TypeError' })
    expect(failureOf(null, [fallback], agentFailedIn)?.key).toBe(fallback)
    expect(failureOf(null, [trace({ kind: 'fallback', errorClass: 'MissingAdapter' })], agentFailedIn)).toBeUndefined()
    expect(failureOf(null, [trace({})], agentFailedIn)).toBeUndefined()
  })
})

describe('layoutStream splits a reply where something happened inside it', () => {
  const user = message('u1', 'user', 'ask me')
  it('the text that came after a hosted dialog reads after its Q→A summary', () => {
    const dialog = { ...questionDialog('t1'), outcome: { dismissed: false, approved: false, results: [{ question: 'Which plan are you on?', chosen: ['Pro'] }] } }
    const reply = message('a1', 'assistant', 'One question first. Thanks — Pro.', { toolCalls: [{ id: 't1', name: 'AskUserQuestion', args: {}, status: 'complete' }] })
    const log = [{ dialog, anchor: 'a1', answering: false, offset: 'One question first.'.length }]
    expect(layoutStream([user, reply], log).map((item) => (item.kind === 'dialog' ? `dialog:${item.dialog.toolId}` : `${item.key}:${item.text ?? item.message.content}`))).toEqual([
      'u1:ask me', 'a1:One question first.', 'dialog:t1', 'a1:after: Thanks — Pro.',
    ])
    // Nothing after the dialog yet (or an unknown offset): the message stays whole, the dialog after it.
    expect(layoutStream([user, { ...reply, content: 'One question first.' }], log).map((item) => item.key)).toEqual(['u1', 'a1', 'dialog:t1'])
  })

  it('a fallback answer after a failed agent is its own part', () => {
    const reply = message('a1', 'assistant', 'Let me check… Sorry, I cannot answer that right now.')
    const items = layoutStream([user, reply], [], new Map([['a1', 'Let me check… '.length]]))
    expect(items.map((item) => (item.kind === 'message' ? [item.part, item.text] : []))).toEqual([
      [undefined, undefined], ['before', 'Let me check… '], ['fallback', 'Sorry, I cannot answer that right now.'],
    ])
  })

  it('observePending records where the host message’s text stood when the dialog arrived', () => {
    expect(observePending([], questionDialog('t1'), 'a1', 19)[0]?.offset).toBe(19)
    expect(observePending([], questionDialog('t1'), null)[0]).not.toHaveProperty('offset')
  })
})

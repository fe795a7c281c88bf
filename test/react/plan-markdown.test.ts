import { describe, expect, it } from 'vitest'

// Plans are rendered by markdown-to-jsx now (markdown.test.tsx); the hand-written parser is retired.
import { humanizeEvent } from '../../renderers/react/event-buttons.js'
import { canReplayLastTurn } from '../../renderers/react/message-actions.js'
import { message } from './dialogs.js'

describe('small pure helpers', () => {
  it('humanizes event names', () => {
    expect(humanizeEvent('TALK_TO_HUMAN')).toBe('Talk to human')
    expect(humanizeEvent('talk-to-human')).toBe('Talk to human')
    expect(humanizeEvent('resetPassword')).toBe('Reset password')
  })

  it('offers retry / regenerate only for an idle assistant reply to a user message', () => {
    const turn = [message('u', 'user', 'q'), message('a', 'assistant', 'r')]
    expect(canReplayLastTurn(turn, false)).toBe(true)
    expect(canReplayLastTurn(turn, true)).toBe(false)
    expect(canReplayLastTurn(turn.slice(0, 1), false)).toBe(false)
    expect(canReplayLastTurn([], false)).toBe(false)
  })
})

describe('eventButtonsOf (the support-bot definition)', () => {
  it('offers only the UI events that fire one of the current state’s events, each once', async () => {
    const { eventButtonsOf } = await import('../../renderers/react/event-buttons.js')
    const { supportBot } = await import('../../examples/support-bot/definition.js')
    const routes = supportBot.conversation.routes
    const { createChatSession } = await import('../../src/index.js')
    const buttons = (state: string) => eventButtonsOf(routes, state, createChatSession(supportBot, { lint: false, start: { state } }).getSnapshot().events)
    // greeting also declares greet / start: no UI event fires them, so no button.
    expect(buttons('greeting')).toEqual([{ uiEvent: 'escalate', event: 'escalate' }])
    expect(buttons('confirming')).toEqual([{ uiEvent: 'confirm', event: 'confirm' }, { uiEvent: 'escalate', event: 'escalate' }])
    expect(buttons('escalated')).toEqual([{ uiEvent: 'resolve', event: 'resolve' }])
    // A restart event route has no machine event: it is offered where its `states` allow.
    expect(buttons('resolved')).toEqual([{ uiEvent: 'start-over', event: 'start-over' }])
    // A route restricted to other states gives no button.
    const onlyElsewhere = routes.map((route) => (route.kind === 'event' && route.uiEvent === 'escalate' ? { ...route, states: ['collecting'] } : route))
    expect(eventButtonsOf(onlyElsewhere, 'greeting', ['escalate'])).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { supportBot } from '../../examples/support-bot/definition.js'
import { shortcutEvents } from '../../renderers/ink/shortcut-events.js'
import { commandRoute, defineChat, eventRoute } from '../../src/index.js'

const eventsOf = (state: string): string[] => Object.keys(supportBot.conversation.states[state]?.on ?? {})

describe('shortcutEvents (support bot)', () => {
  it('keeps the events answered as UI events, in the state’s order, and drops the typed ones', () => {
    expect(eventsOf('confirming')).toEqual(['help', 'confirm', 'order', 'change', 'escalate', 'cancel'])
    expect(shortcutEvents(supportBot, 'confirming', eventsOf('confirming'))).toEqual(['confirm', 'escalate'])
    expect(shortcutEvents(supportBot, 'greeting', eventsOf('greeting'))).toEqual(['escalate'])
    expect(shortcutEvents(supportBot, 'escalated', eventsOf('escalated'))).toEqual(['resolve'])
  })

  it('respects an event route’s states', () => {
    const definition = defineChat({
      id: 'scoped',
      chat: {},
      conversation: {
        initial: 'a',
        states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } },
        fallback: { response: 'no agent here' },
        routes: [
          eventRoute({ id: 'go-button', uiEvent: 'go', event: 'go', states: ['a'], response: 'went' }),
          commandRoute({ id: 'go', command: '/go', event: 'go', response: 'went' }),
        ],
      },
    })
    expect(shortcutEvents(definition, 'a', ['go'])).toEqual(['go'])
    expect(shortcutEvents(definition, 'b', ['go'])).toEqual([])
  })
})

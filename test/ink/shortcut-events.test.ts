import { describe, expect, it } from 'vitest'
import { supportBot } from '../../examples/support-bot/definition.js'
import { humanizeEventName, shortcutEvents, shortcutsOfBar, withStartOver } from '../../renderers/ink/shortcut-events.js'
import { eventBarOf } from '../../src/view/event-bar.js'
import { commandRoute, createChatSession, defineChat, eventRoute } from '../../src/index.js'
import { deliveryChat } from './delivery-fixture.js'

// The events the state takes (its own and the conversation-level ones): what a session's snapshot lists.
const eventsOf = (state: string): readonly string[] => createChatSession(supportBot, { lint: false, start: { state } }).getSnapshot().events
const uiEvents = (shortcuts: ReadonlyArray<{ uiEvent: string }>) => shortcuts.map((shortcut) => shortcut.uiEvent)

describe('shortcutEvents (support bot)', () => {
  it('keeps the events answered as UI events, in route order, and drops the typed ones', () => {
    expect(eventsOf('confirming')).toEqual(['confirm', 'order', 'change', 'escalate', 'cancel'])
    expect(uiEvents(shortcutEvents(supportBot, 'confirming', eventsOf('confirming')))).toEqual(['confirm', 'escalate'])
    expect(uiEvents(shortcutEvents(supportBot, 'greeting', eventsOf('greeting')))).toEqual(['escalate'])
    expect(uiEvents(shortcutEvents(supportBot, 'escalated', eventsOf('escalated')))).toEqual(['resolve'])
  })

  it('labels each key: the labels given (by UI event, then machine event), else the UI event humanized', () => {
    expect(shortcutEvents(supportBot, 'confirming', eventsOf('confirming')).map((shortcut) => shortcut.label)).toEqual(['Confirm', 'Escalate'])
    expect(shortcutEvents(supportBot, 'confirming', eventsOf('confirming'), { confirm: 'Yes, reship', escalate: 'Talk to a person' }).map((s) => s.label))
      .toEqual(['Yes, reship', 'Talk to a person'])
    expect(humanizeEventName('TALK_TO_HUMAN')).toBe('Talk to human')
    expect(humanizeEventName('chooseDelivery')).toBe('Choose delivery')
  })

  it('gives every UI event of an eligible route its key, also when it is named unlike its machine event', () => {
    const delivery = deliveryChat()
    expect(shortcutEvents(delivery, 'shipping', ['chooseDelivery', 'cancel'])).toEqual([
      { uiEvent: 'standard', event: 'chooseDelivery', label: 'Standard' },
      { uiEvent: 'express', event: 'chooseDelivery', label: 'Express' },
    ])
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
    expect(uiEvents(shortcutEvents(definition, 'a', ['go']))).toEqual(['go'])
    expect(shortcutEvents(definition, 'b', ['go'])).toEqual([])
  })
})

describe('withStartOver (the keys after a final state)', () => {
  const shortcut = (uiEvent: string, label: string) => ({ uiEvent, event: uiEvent, label })
  it('puts the restart UI event first, labelled "Start over" or by its label, never twice', () => {
    const keys = [shortcut('rate', 'Rate'), shortcut('RESTART', 'Restart')]
    expect(withStartOver(keys, 'RESTART')).toEqual([shortcut('RESTART', 'Start over'), shortcut('rate', 'Rate')])
    expect(withStartOver(keys, 'RESTART', { RESTART: 'New chat' }).map((s) => s.label)).toEqual(['New chat', 'Rate'])
    expect(withStartOver(keys, undefined)).toEqual(keys)
  })

  it('offers the support bot\'s Start over in its final state, from the snapshot', () => {
    const snapshot = createChatSession(supportBot, { lint: false, start: { state: 'resolved' } }).getSnapshot()
    expect(withStartOver(shortcutEvents(supportBot, 'resolved', snapshot.events), snapshot.restart)).toEqual([
      { uiEvent: 'start-over', event: 'start-over', label: 'Start over' },
    ])
  })
})

describe('shortcutsOfBar (the keys for chatrail/view\'s event bar)', () => {
  const snapshotIn = (state: string) => createChatSession(supportBot, { lint: false, start: { state } }).getSnapshot()
  const bar = (state: string, eventLabels?: Record<string, string>) => eventBarOf({ definition: supportBot, snapshot: snapshotIn(state), traces: [], disabled: false, eventLabels })

  it('offers the state\'s buttons with the bar\'s labels, the same as shortcutEvents', () => {
    const snapshot = snapshotIn('confirming')
    expect(shortcutsOfBar(bar('confirming'))).toEqual(shortcutEvents(supportBot, 'confirming', snapshot.events))
    expect(shortcutsOfBar(bar('confirming', { escalate: 'Talk to a person' })).map((key) => key.label)).toEqual(['Confirm', 'Talk to a person'])
  })

  it('puts Start over first in a final state', () => {
    expect(shortcutsOfBar(bar('resolved'))).toEqual([{ uiEvent: 'start-over', event: 'start-over', label: 'Start over' }])
  })

  it('labels by the definition\'s eventLabels after the app\'s (shortcutEvents too)', () => {
    const labelled = { ...supportBot, conversation: { ...supportBot.conversation, eventLabels: { confirm: 'Yes, reship' } } }
    const snapshot = snapshotIn('confirming')
    expect(shortcutEvents(labelled, 'confirming', snapshot.events).map((key) => key.label)).toEqual(['Yes, reship', 'Escalate'])
    expect(shortcutEvents(labelled, 'confirming', snapshot.events, { confirm: 'Reship it' }).map((key) => key.label)).toEqual(['Reship it', 'Escalate'])
  })
})

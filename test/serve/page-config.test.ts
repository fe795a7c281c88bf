import { describe, expect, it } from 'vitest'
import { supportBot } from '../../examples/support-bot/definition.js'
import { commandRoute, createChatSession, defineChat, eventRoute, patternRoute } from '../../src/index.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { browserDefinitionOf } from '../../renderers/serve-page/browser-definition.js'
import { eventButtonsOf, restartEventOf } from '../../src/view/event-routes.js'
import { suggestionsOf } from '../../src/view/suggestions.js'

const SECRET = 'sk-live-do-not-ship'

const definition = defineChat({
  id: 'desk',
  revision: 3,
  chat: {},
  conversation: {
    initial: 'open',
    fallback: { response: 'Sorry.' },
    context: { apiKey: SECRET },
    on: { close: 'closed' },
    states: {
      open: { on: { start: 'open', close: { target: 'closed', guard: () => true, description: 'Always.' } }, description: 'Open.', actions: ['close'] },
      closed: { on: { reopen: 'open' }, final: true, ignoreGlobal: true },
    },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', description: 'Start.', response: 'Started.' }),
      patternRoute({ id: 'secret', pattern: /sk-live-\w+/, response: `Your key ${SECRET}` }),
      eventRoute({ id: 'close-button', uiEvent: 'close-ticket', event: 'close', response: () => 'Closed.' }),
      eventRoute({ id: 'reopen-button', uiEvent: 'reopen', event: 'reopen', states: ['closed'], response: 'Reopened.' }),
      eventRoute({ id: 'again', uiEvent: 'start-again', states: ['closed'], restart: true, description: 'Start again.', response: 'Again.' }),
    ],
  },
})

describe('the serve page config (a route summary) and the browser definition built from it', () => {
  it('names states, transitions and command and event routes only: no responses, guards, patterns or context', () => {
    const config = pageConfigOf(definition)
    expect(config).toEqual({
      id: 'desk',
      revision: 3,
      initial: 'open',
      on: { close: 'closed' },
      states: {
        open: { on: { start: 'open', close: 'closed' }, description: 'Open.', actions: ['close'] },
        closed: { on: { reopen: 'open' }, final: true, ignoreGlobal: true },
      },
      routes: [
        { id: 'start', kind: 'command', command: '/start', event: 'start', description: 'Start.' },
        { id: 'close-button', kind: 'event', uiEvent: 'close-ticket', event: 'close' },
        { id: 'reopen-button', kind: 'event', uiEvent: 'reopen', event: 'reopen', states: ['closed'] },
        { id: 'again', kind: 'event', uiEvent: 'start-again', states: ['closed'], restart: true, description: 'Start again.' },
      ],
    })
    const json = JSON.stringify(config)
    expect(json).not.toContain(SECRET)
    expect(json).not.toContain('Closed.')
    expect(json).not.toContain('Started.')
  })

  it('rebuilds, from the JSON alone, a definition with the same snapshot, suggestions, buttons and restart as the server\'s', () => {
    for (const served of [definition, supportBot]) {
      const browser = browserDefinitionOf(JSON.parse(JSON.stringify(pageConfigOf(served))))
      expect({ id: browser.id, revision: browser.revision }).toEqual({ id: served.id, revision: served.revision })
      const server = createChatSession(served, { lint: false }).getSnapshot()
      const page = createChatSession(browser, { lint: false }).getSnapshot()
      expect({ state: page.state, events: page.events, actions: page.actions, final: page.final }).toEqual({ state: server.state, events: server.events, actions: server.actions, final: server.final })
      for (const state of Object.keys(served.conversation.states)) {
        const events = ['start', 'close', 'reopen', 'escalate', 'confirm', 'resolve', 'cancel', 'order']
        expect(suggestionsOf(browser.conversation.routes, state, events, eventButtonsOf)).toEqual(suggestionsOf(served.conversation.routes, state, events, eventButtonsOf))
        expect(restartEventOf(browser.conversation.routes, state)).toBe(restartEventOf(served.conversation.routes, state))
      }
    }
  })

  it('its agent is the server-side placeholder: a turn that reached the page would fail loudly, not answer', async () => {
    const browser = browserDefinitionOf(pageConfigOf(definition))
    const source = browser.chat.adapter?.createSource({ messages: [] })
    const chunks = []
    for await (const chunk of source?.stream() ?? []) chunks.push(chunk)
    expect(chunks).toEqual([expect.objectContaining({ type: 'error', content: expect.stringContaining('runs on the chatrail server') })])
  })
})

import { describe, expect, it } from 'vitest'
import { commandRoute, defineChat, eventRoute } from '../../src/index.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'

const definition = defineChat({
  id: 'desk',
  revision: 3,
  chat: {},
  conversation: {
    initial: 'open',
    fallback: { response: 'Sorry.' },
    context: {},
    states: { open: { on: { close: 'closed', start: 'open' } }, closed: { on: { reopen: 'open' } } },
    routes: [
      commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Started.' }),
      eventRoute({ id: 'close-button', uiEvent: 'close-ticket', event: 'close', response: 'Closed.' }),
      eventRoute({ id: 'reopen-button', uiEvent: 'reopen', event: 'reopen', states: ['closed'], response: 'Reopened.' }),
    ],
  },
})

describe('the serve page config', () => {
  it('names the definition and lists its event routes only (no responses, commands, patterns or guards)', () => {
    const config = pageConfigOf(definition)
    expect(config).toEqual({
      id: 'desk',
      revision: 3,
      eventRoutes: [
        { uiEvent: 'close-ticket', event: 'close' },
        { uiEvent: 'reopen', event: 'reopen', states: ['closed'] },
      ],
    })
    expect(JSON.stringify(config)).not.toContain('Closed.')
  })
})

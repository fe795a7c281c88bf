import type { AdapterFactory } from '../../../src/contract/adapter.js'
import { commandRoute, defineChat, eventRoute, type ChatDefinition } from '../../../src/index.js'

/**
 * The workflow of the remote-mode browser test, shared by the server (with its agent) and the
 * page (with `serverSideAgent`: in remote mode the page only reads routes and states from it).
 */
export function remoteDefinition(adapter: AdapterFactory): ChatDefinition {
  return defineChat({
    id: 'remote-delivery',
    chat: { adapter },
    conversation: {
      initial: 'idle',
      states: {
        idle: { on: { start: 'asking' } },
        asking: { on: { date: 'booked', cancel: 'idle' } },
        booked: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'Which day?' }),
        eventRoute({ id: 'cancel', uiEvent: 'cancel', event: 'cancel', response: 'Cancelled.' }),
        eventRoute({ id: 'book', uiEvent: 'book_tomorrow', event: 'date', response: 'Booked for tomorrow.' }),
      ],
    },
  })
}

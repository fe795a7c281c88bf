import type { AdapterFactory } from '../../src/contract/adapter.js'
import { commandRoute, defineChat, eventRoute, patternRoute } from '../../src/index.js'

/** A small order workflow for the Ink tests: a command, a pattern into context, a UI event. */
export function orderChat(adapter: AdapterFactory, id = 'ink-orders') {
  return defineChat({
    id,
    chat: { adapter },
    conversation: {
      initial: 'start',
      context: { order: '' },
      states: {
        start: { on: { begin: 'order' } },
        order: { on: { found: 'confirm', escalate: 'human' } },
        confirm: { on: { yes: 'done', escalate: 'human' } },
        human: { final: true },
        done: { final: true },
      },
      routes: [
        commandRoute({ id: 'begin', command: '/start', event: 'begin', response: 'Hi! What is your order number?' }),
        patternRoute({
          id: 'order-number',
          pattern: /^(?<order>\d{4,})$/,
          event: 'found',
          assign: true,
          response: (_input, ctx) => `Order ${ctx.match?.groups.order ?? '?'}. Is that right?`,
        }),
        commandRoute({ id: 'confirm', command: 'yes', event: 'yes', response: 'Done.' }),
        eventRoute({ id: 'escalate', uiEvent: 'escalate', event: 'escalate', response: 'Connecting you to a human.' }),
      ],
    },
  })
}

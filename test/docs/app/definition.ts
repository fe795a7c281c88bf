import { commandRoute, defineChat, eventRoute, type AdapterFactory, type ChatDefinition } from 'chatrail'

/**
 * The stand-in for an app's own workflow module, which doc blocks import as `./definition.js`
 * (docs/testing.md, server.md, client.md). It has the names those pages use: states idle → menu →
 * ticket, the routes `start` and `open-ticket`, a `ticket` in the context.
 */

export type SupportContext = { ticket?: { open: boolean } }

export function createSupportBot(adapter?: AdapterFactory): ChatDefinition<SupportContext> {
  return defineChat<SupportContext>({
    id: 'support-bot',
    chat: adapter ? { adapter } : {},
    conversation: {
      initial: 'idle',
      context: {},
      states: {
        idle: { on: { start: 'menu' } },
        menu: { on: { 'open-ticket': 'ticket' } },
        ticket: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', response: 'What can I do for you?' }),
        eventRoute({ id: 'open-ticket', uiEvent: 'open-ticket', event: 'open-ticket', response: { text: 'Ticket opened.', assign: { ticket: { open: true } } } }),
      ],
      fallback: { response: 'No agent is connected. Type /start.' },
    },
  })
}

/** The workflow without an agent: anything the routes do not cover gets the fallback answer. */
export const supportBot = createSupportBot()

export const definition = supportBot

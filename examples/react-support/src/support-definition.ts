import type { AdapterFactory } from '../../../src/contract/adapter.js'
import { commandRoute, defineChat, eventRoute, patternRoute } from '../../../src/conversation/index.js'
import type { ChatDefinition } from '../../../src/conversation/index.js'

/**
 * The support workflow this example renders: greeting, an order number captured into context by a
 * pattern route, escalation and resolution as UI events; anything else goes to `adapter`.
 */

export interface SupportContext {
  [key: string]: string | undefined
  order?: string
}

export function supportDefinition(adapter: AdapterFactory): ChatDefinition<SupportContext> {
  return defineChat<SupportContext>({
    id: 'react-support',
    chat: { adapter },
    conversation: {
      initial: 'welcome',
      context: {},
      states: {
        welcome: { on: { START: 'triage' }, description: 'Say /start to begin.' },
        triage: { on: { ORDER: 'order', ESCALATE: 'human', RESOLVE: 'done' }, description: 'Tell us your order number.' },
        order: { on: { ESCALATE: 'human', RESOLVE: 'done' } },
        human: { on: { RESOLVE: 'done' } },
        done: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'START', response: 'Hi! What is your order number? (e.g. "order 1042")' }),
        patternRoute({
          id: 'order',
          pattern: /\border\s*#?(?<order>\d{3,})\b/i,
          event: 'ORDER',
          assign: true,
          response: (_input, ctx) => `Thanks, I found order ${ctx.match?.groups['order'] ?? ''}. Is it about delivery or billing?`,
        }),
        eventRoute({ id: 'escalate', uiEvent: 'ESCALATE', event: 'ESCALATE', response: 'Connecting you to a person.' }),
        eventRoute({ id: 'resolve', uiEvent: 'RESOLVE', event: 'RESOLVE', response: 'Glad it is solved. Goodbye!' }),
      ],
    },
  })
}

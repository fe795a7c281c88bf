import type { AdapterFactory } from '../../../src/contract/adapter.js'
import { commandRoute, defineChat, eventRoute, patternRoute } from '../../../src/index.js'
import type { ChatDefinition } from '../../../src/index.js'
import { defineComponents, standardCatalog } from '../../../src/components/index.js'

const components = defineComponents(standardCatalog)

/** The state names as the scenario pages label them (the same words on every binding). */
export const STATE_LABELS = {
  greeting: 'Welcome',
  choosing: 'Next step',
  collecting: 'Order lookup',
  confirming: 'Confirm reship',
  escalated: 'With a person',
  resolved: 'Resolved',
}

/** The event buttons' words, by UI event. */
export const EVENT_LABELS = { confirm: 'Reship it', escalate: 'Talk to a person', resolve: 'Mark as solved' }

/**
 * The scenario suite's workflow (test/bindings/binding-scenarios.ts), support-bot-like: `/start`
 * and an order number are deterministic (no agent), a confirm / escalate / resolve event bar,
 * `/options` answers with a choice list (one interaction: its choices are the event routes of the
 * `choosing` state), and
 * everything else falls through to `adapter` (the scripted live agent of examples/react-support:
 * "ask" and "plan" open dialogs, "long" streams slowly enough to stop). The server runs it with its
 * agent; a page in remote mode reads routes and states from it with `serverSideAgent`.
 */
export function scenarioDefinition(adapter: AdapterFactory): ChatDefinition {
  return defineChat({
    id: 'binding-scenarios',
    chat: { adapter },
    components,
    conversation: {
      initial: 'greeting',
      on: { escalate: 'escalated' },
      states: {
        greeting: { on: { start: 'collecting', options: 'choosing' } },
        choosing: { on: { chosen: 'greeting' } },
        collecting: { on: { order: 'confirming' } },
        confirming: { on: { confirm: 'resolved', order: 'confirming' } },
        escalated: { on: { resolve: 'resolved' }, ignoreGlobal: true },
        resolved: { final: true },
      },
      routes: [
        commandRoute({ id: 'start', command: '/start', event: 'start', description: 'Start an order lookup.', response: 'Sure. What is your order number? (for example #12345)' }),
        patternRoute({
          id: 'order-number',
          pattern: /(?:^|\s|#)(?<orderNumber>\d{5,8})\b/,
          event: 'order',
          states: ['collecting', 'confirming'],
          response: (_input, ctx) => `Order #${ctx.match?.groups.orderNumber ?? ''} shows as lost in transit. Shall I reship it?`,
        }),
        eventRoute({ id: 'confirm', uiEvent: 'confirm', event: 'confirm', response: 'Done: the order will be reshipped today.' }),
        eventRoute({ id: 'escalate', uiEvent: 'escalate', event: 'escalate', description: 'Hand the conversation to a person.', response: 'I am handing you over to a person.' }),
        eventRoute({ id: 'resolve', uiEvent: 'resolve', event: 'resolve', response: 'Glad we could help. Goodbye!' }),
        commandRoute({
          id: 'options',
          command: '/options',
          event: 'options',
          description: 'Show what can happen to a lost order.',
          response: () => [
            'Here is what I can do.',
            components.render('choice-list', { prompt: 'What should happen now?', choices: [{ id: 'reship', label: 'Reship', description: 'free, 3 days' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next-step' }),
          ],
        }),
        eventRoute({ id: 'reship', uiEvent: 'reship', event: 'chosen', response: 'Reshipping your order.' }),
        eventRoute({ id: 'refund', uiEvent: 'refund', event: 'chosen', response: 'Refund on its way.' }),
      ],
    },
  })
}

import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import {
  commandRoute,
  defineChat,
  eventRoute,
  patternRoute,
  route,
  textRoute,
  type ChatDefinition,
  type FallbackContext,
} from '../../src/index.js'

/**
 * A complete support workflow: greeting, collecting an order number (a pattern route assigns it
 * into the context), a guarded confirmation (its `refuse` re-prompts), escalation to a person, Start
 * over after the end, and a fallback answer when the agent is missing or fails. `/cancel` and
 * `/human` are declared once (conversation-level `on`), `/help` is a reply-only route. Every route
 * has a `description` (the offline demo adapter lists them).
 *
 * Exports (stable; the testing kit, the React and Ink renderers and the CLI demo use them):
 * `createSupportBot(adapter?)`, `supportBot` (no agent: the fallback answers), `SupportContext`,
 * `SUPPORT_EVENTS`, and `supportBot` as the default export.
 */

export type SupportContext = {
  orderNumber?: string
  reshipped?: boolean
}

/** UI events the workflow understands (buttons a renderer may show). */
export const SUPPORT_EVENTS = { confirm: 'confirm', escalate: 'escalate', resolve: 'resolve', startOver: 'start-over' } as const

const hasOrder = ({ context }: { context: Readonly<SupportContext> }): boolean => typeof context.orderNumber === 'string'

function fallbackAnswer(_input: string, ctx: FallbackContext<SupportContext>): string {
  const where = ctx.state === 'collecting' ? 'Please type your order number (for example #12345).' : 'Type /start to look up an order, or /human to reach a person.'
  return `Sorry, I can't answer that right now. ${where}`
}

/** `tools`: what the agent may call (the React example's refund tools); none by default. */
export function createSupportBot(adapter?: AdapterFactory, tools?: ToolDefinition[]): ChatDefinition<SupportContext> {
  return defineChat<SupportContext>()({
    id: 'support-bot',
    chat: adapter ? { adapter, systemPrompt: 'You are a concise support assistant for an online shop.', ...(tools ? { tools } : {}) } : {},
    conversation: {
      initial: 'greeting',
      context: {},
      // Every non-final state takes these (said once); greeting has nothing to cancel, and a
      // person, once reached, is not left by a command.
      on: { escalate: 'escalated', cancel: 'greeting' },
      states: {
        greeting: {
          description: 'Waiting for the customer to start.',
          on: { greet: 'greeting', start: 'collecting' },
          ignoreGlobal: ['cancel'],
          actions: ['start', 'talk-to-a-person'],
        },
        collecting: {
          description: 'Asking for the order number.',
          on: { order: 'confirming' },
          actions: ['type-order-number', 'talk-to-a-person', 'cancel'],
        },
        confirming: {
          description: 'Offering to reship the order.',
          on: {
            confirm: { target: 'resolved', guard: hasOrder, description: 'Only with an order number on file.' },
            order: 'confirming',
            change: 'collecting',
          },
          actions: ['confirm', 'change-order', 'talk-to-a-person'],
        },
        escalated: {
          description: 'Handed over to a person.',
          on: { resolve: 'resolved' },
          ignoreGlobal: true,
          actions: ['resolve'],
        },
        resolved: { description: 'Done.', final: true, actions: ['start-over'] },
      },
      routes: [
        textRoute({
          id: 'greet',
          texts: ['hi', 'hello', 'hey', 'good morning'],
          event: 'greet',
          description: 'Say hello.',
          response: 'Hello! I can look up an order and reship it. Type /start to begin, or /human to reach a person.',
        }),
        commandRoute({
          id: 'help',
          command: '/help',
          description: 'List what you can do here.',
          response: (_input, ctx) => `You are at step "${ctx.state}". Commands: /start, /cancel, /human, /help.`,
        }),
        commandRoute({
          id: 'start',
          command: '/start',
          event: 'start',
          description: 'Start an order lookup.',
          response: 'Sure. What is your order number? (for example #12345)',
        }),
        patternRoute({
          id: 'order-number',
          pattern: /(?:^|\s|#)(?<orderNumber>\d{5,8})\b/,
          event: 'order',
          states: ['collecting', 'confirming'],
          assign: true,
          description: 'Give an order number (5 to 8 digits).',
          response: (_input, ctx) => ({
            text: `Order #${ctx.match?.groups.orderNumber ?? ''}: it shows as lost in transit. Shall I reship it? (yes / no)`,
          }),
        }),
        textRoute({
          id: 'confirm',
          texts: ['yes', 'yes please', 'confirm', 'ok'],
          event: 'confirm',
          states: ['confirming'],
          description: 'Confirm the reshipment.',
          refuse: 'I need your order number before I can reship anything. What is it? (for example #12345)',
          response: (_input, ctx) => ({ text: `Done: order #${ctx.context.orderNumber ?? '?'} will be reshipped today.`, assign: { reshipped: true } }),
        }),
        eventRoute({
          id: 'confirm-button',
          uiEvent: SUPPORT_EVENTS.confirm,
          event: 'confirm',
          description: 'Reship the order now.',
          response: (_input, ctx) => ({ text: `Done: order #${ctx.context.orderNumber ?? '?'} will be reshipped today.`, assign: { reshipped: true } }),
        }),
        textRoute({
          id: 'change',
          texts: ['no', 'wrong number', 'change'],
          event: 'change',
          description: 'Give a different order number.',
          response: 'No problem. What is the right order number?',
        }),
        commandRoute({
          id: 'cancel',
          command: '/cancel',
          event: 'cancel',
          description: 'Stop the current lookup.',
          response: { text: 'Cancelled. Type /start whenever you are ready.', assign: { orderNumber: undefined } },
        }),
        commandRoute({
          id: 'human',
          command: '/human',
          event: 'escalate',
          description: 'Talk to a person.',
          response: 'I am handing you over to a person. They will reply here shortly.',
        }),
        eventRoute({
          id: 'escalate-button',
          uiEvent: SUPPORT_EVENTS.escalate,
          event: 'escalate',
          description: 'Hand the conversation to a person.',
          response: 'I am handing you over to a person. They will reply here shortly.',
        }),
        route({
          id: 'frustrated',
          event: 'escalate',
          match: (input) => /\b(useless|ridiculous|furious|speak to (a|your) manager)\b/i.test(input),
          description: 'Frustration goes straight to a person.',
          traceKind: 'repaired',
          response: 'I am sorry this has been frustrating. I am handing you over to a person right away.',
        }),
        eventRoute({
          id: 'resolve',
          uiEvent: SUPPORT_EVENTS.resolve,
          event: 'resolve',
          description: 'Close the conversation as solved.',
          response: 'Glad we could help. Goodbye!',
        }),
        commandRoute({
          id: 'start-over',
          command: '/start',
          restart: true,
          states: ['resolved'],
          description: 'Start over after the end.',
          response: 'Starting over. Type /start to look up an order, or /human to reach a person.',
        }),
        eventRoute({
          id: 'start-over-button',
          uiEvent: SUPPORT_EVENTS.startOver,
          restart: true,
          states: ['resolved'],
          description: 'Begin again with a new lookup.',
          response: 'Starting over. Type /start to look up an order, or /human to reach a person.',
        }),
      ],
      fallback: { response: fallbackAnswer },
    },
  })
}

/** The workflow without an agent: anything the routes do not cover gets the fallback answer. */
export const supportBot: ChatDefinition<SupportContext> = createSupportBot()

export default supportBot

import { commandRoute, defineChat, eventRoute, type ChatDefinition, type ToolDefinition, type TrustedActionContext } from '../../src/index.js'
import { choiceActionRoute, createActionConfirmation, createCapabilityPolicy, memoryConfirmationLedger, type ActionConfirmationCoordinator } from '../../src/conversation/actions.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'

/**
 * A refund desk: a component, a confirmation and a policy in one workflow (issue 30's example).
 * `/refund` answers with a choice list whose "Refund" choice carries a typed action; choosing it
 * proposes the refund for confirmation (the built-in `choiceActionRoute`) and answers with an
 * approval request bound to the record by its token. The approval card approves through the
 * coordinator (or the server's approve-action endpoint): the refund executes once, if the agent
 * handling the chat may refund (the policy, read at propose and again at approval); a second
 * approval, from another tab, a double click or a reload, finds the record decided and executes
 * nothing (the ledger's compare-and-swap decides).
 */

export type RefundContext = { order?: string }

export interface RefundDeskOptions {
  /** Where refunds go (your payment provider); `idempotencyKey` is the same on every attempt. */
  readonly refund: (order: string, idempotencyKey: string | undefined) => void
  /** The signed-in agent's capabilities, as your app knows them (read at every check). */
  readonly capabilities: (sessionId: string) => readonly string[]
  /** Shared by every instance (a store's `confirmationLedgerOf(store)`); in memory by default. */
  readonly ledger?: ReturnType<typeof memoryConfirmationLedger>
  /** The clock proposals expire by (milliseconds since the epoch). Default `Date.now`. */
  readonly now?: () => number
}

export const components = defineComponents(standardCatalog)

export function createRefundDesk(options: RefundDeskOptions): { definition: ChatDefinition<RefundContext>; confirmationsFor: (sessionId: string) => ActionConfirmationCoordinator } {
  const ledger = options.ledger ?? memoryConfirmationLedger()
  const refund: ToolDefinition = {
    name: 'refund',
    requiresConfirmation: true,
    execute: (input, { idempotencyKey }) => {
      options.refund(String(input.order), idempotencyKey)
      return 'refunded'
    },
  }
  const coordinators = new Map<string, ActionConfirmationCoordinator>()
  const confirmationsFor = (sessionId: string): ActionConfirmationCoordinator => {
    let coordinator = coordinators.get(sessionId)
    if (!coordinator) {
      const policy = createCapabilityPolicy({
        sessionId,
        requirements: { refund: ['billing:write'] },
        getContext: (): TrustedActionContext => ({ sessionId, capabilities: [...options.capabilities(sessionId)] }),
      })
      coordinator = createActionConfirmation({ sessionId, tools: [refund], ledger, policy, ...(options.now === undefined ? {} : { now: options.now }) })
      coordinators.set(sessionId, coordinator)
    }
    return coordinator
  }

  const definition = defineChat<RefundContext>()({
    id: 'refund-desk',
    chat: {},
    components,
    conversation: {
      initial: 'idle',
      context: {},
      states: {
        idle: { on: { report: 'choosing' } },
        choosing: { on: { reship: 'done', proposed: 'approving' }, actions: ['refund'] },
        approving: { actions: ['refund'] },
        done: { final: true },
      },
      routes: [
        commandRoute({
          id: 'report',
          command: '/refund',
          event: 'report',
          response: () => ({
            assign: { order: 'A-17' },
            content: [
              'Order A-17 never arrived.',
              components.render('choice-list', {
                prompt: 'What should we do?',
                choices: [
                  { id: 'reship', label: 'Reship it' },
                  // a typed action: choosing it proposes the refund instead of sending a message
                  { id: 'refund', label: 'Refund 40 EUR', action: { name: 'refund', input: { order: 'A-17', amount: 40 } } },
                ],
              }, { instanceId: 'next-step' }),
            ],
          }),
        }),
        choiceActionRoute({ actions: ['refund'], event: 'proposed', components, confirmations: (ctx) => confirmationsFor(ctx.sessionId), text: () => 'A refund needs a second pair of eyes.' }),
        eventRoute({ id: 'reship', uiEvent: 'reship', event: 'reship', response: 'A new parcel is on its way.' }),
      ],
      fallback: { response: 'Say /refund to report an order that never came.' },
    },
  })
  return { definition, confirmationsFor }
}

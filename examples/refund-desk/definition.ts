import { commandRoute, defineChat, eventRoute, type ChatDefinition, type ToolDefinition, type TrustedActionContext } from '../../src/index.js'
import { createActionConfirmation, createCapabilityPolicy, memoryConfirmationLedger, type ActionConfirmationCoordinator } from '../../src/conversation/actions.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'

/**
 * A refund desk: a component, a confirmation and a policy in one workflow (issue 30's example).
 * `/refund` answers with a choice list; choosing "Refund" proposes the refund for confirmation and
 * answers with an approval request carrying its token; approving it executes the refund once, if
 * the agent handling the chat may refund (the policy, read again at approval); a second approval,
 * from another tab or a double click, is refused by the session before it reaches the coordinator.
 */

export type RefundContext = { token?: string; order?: string }

export interface RefundDeskOptions {
  /** Where refunds go (your payment provider); `idempotencyKey` is the same on every attempt. */
  readonly refund: (order: string, idempotencyKey: string | undefined) => void
  /** The signed-in agent's capabilities, as your app knows them (read at every check). */
  readonly capabilities: (sessionId: string) => readonly string[]
  /** Shared by every instance (a store's `confirmationLedgerOf(store)`); in memory by default. */
  readonly ledger?: ReturnType<typeof memoryConfirmationLedger>
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
      coordinator = createActionConfirmation({ sessionId, tools: [refund], ledger, policy })
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
        choosing: { on: { refund: 'approving', reship: 'done' } },
        approving: { on: { approved: 'done', rejected: 'done' } },
        done: { final: true },
      },
      routes: [
        commandRoute({
          id: 'report',
          command: '/refund',
          event: 'report',
          response: () => ({
            assign: { order: 'A-17' },
            content: ['Order A-17 never arrived.', components.render('choice-list', { prompt: 'What should we do?', choices: [{ id: 'reship', label: 'Reship it' }, { id: 'refund', label: 'Refund 40 EUR' }] }, { instanceId: 'next-step' })],
          }),
        }),
        eventRoute({ id: 'reship', uiEvent: 'reship', event: 'reship', response: 'A new parcel is on its way.' }),
        eventRoute({
          id: 'refund',
          uiEvent: 'refund',
          event: 'refund',
          response: async (_input, ctx) => {
            const proposal = await confirmationsFor(ctx.sessionId).propose({ name: 'refund', input: { order: ctx.context.order ?? '', amount: 40 } })
            return {
              assign: { token: proposal.token },
              content: ['A refund needs a second pair of eyes.', components.render('approval-request', { token: proposal.token, title: 'Refund 40 EUR', action: { name: 'refund', input: { order: ctx.context.order ?? '' } }, expiresAt: new Date(proposal.expiresAt).toISOString() }, { instanceId: 'approval' })],
            }
          },
        }),
        eventRoute({
          id: 'approve',
          uiEvent: 'approve',
          event: 'approved',
          response: async (_input, ctx) => {
            const decided = await confirmationsFor(ctx.sessionId).approve(ctx.context.token ?? '', ctx.sessionId)
            if (decided.status !== 'approved') throw new Error(`refund ${decided.status}: ${decided.reason ?? ''}`)
            return 'Refunded. It shows on the card in 3 days.'
          },
        }),
        eventRoute({
          id: 'reject',
          uiEvent: 'reject',
          event: 'rejected',
          response: async (_input, ctx) => {
            await confirmationsFor(ctx.sessionId).reject(ctx.context.token ?? '', ctx.sessionId, 'rejected in the chat')
            return 'No refund. The order stays open.'
          },
        }),
      ],
      fallback: { response: 'Say /refund to report an order that never came.' },
    },
  })
  return { definition, confirmationsFor }
}

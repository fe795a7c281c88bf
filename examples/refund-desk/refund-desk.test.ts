import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, type ComponentPart, type Message } from '../../src/index.js'
import { sendInteraction } from '../../src/components/index.js'
import { createRefundDesk } from './definition.js'

/** The refund desk end to end: a choice, a proposal shown as an approval request, one execution, the policy at approval. */

function desk(capabilities: string[] = ['billing:write']) {
  const refunds: string[] = []
  const { definition, confirmationsFor } = createRefundDesk({ refund: (order, key) => refunds.push(`${order}:${key ?? ''}`), capabilities: () => capabilities })
  const session = createChatSession(definition, { lint: false, sessionId: 'desk-1' })
  const controller = createChatController(session.chat)
  controller.subscribe(() => session.sync(controller.getState().messages))
  const answer = (): Message | undefined => controller.getState().messages.findLast((message) => message.role === 'assistant')
  const component = (): { messageId: string; part: ComponentPart } => {
    const message = answer()
    const part = message?.parts?.find((candidate): candidate is ComponentPart => candidate.type === 'component')
    if (!message || !part) throw new Error('no component in the last answer')
    return { messageId: message.id, part }
  }
  return { refunds, session, controller, answer, component, confirmationsFor, capabilities }
}

describe('refund desk example', () => {
  it('choose Refund → an approval request with the proposal\'s token → approve: refunded once; a second approve is refused', async () => {
    const chat = desk()
    await chat.controller.send('/refund')
    await sendInteraction(chat.controller, { ...chat.component(), event: 'select', value: 'refund' })
    const approval = chat.component()
    expect(approval.part.componentKey).toBe('approval-request')
    const token = (approval.part.props as { token: string }).token
    expect(chat.confirmationsFor('desk-1').getSnapshot().find((record) => record.token === token)?.status).toBe('pending')

    await sendInteraction(chat.controller, { ...approval, event: 'approve' })
    expect(chat.answer()?.content).toBe('Refunded. It shows on the card in 3 days.')
    expect(chat.refunds).toHaveLength(1)
    expect(chat.refunds[0]).toMatch(/^A-17:.+/)
    expect(chat.session.getSnapshot().state).toBe('done')

    await sendInteraction(chat.controller, { ...approval, event: 'approve' })
    expect(chat.answer()?.content).toBe('That was already answered.')
    expect(chat.refunds).toHaveLength(1)
  })

  it('a capability revoked between the proposal and the approval blocks the refund; the route fails and nothing moves', async () => {
    const capabilities = ['billing:write']
    const chat = desk(capabilities)
    await chat.controller.send('/refund')
    await sendInteraction(chat.controller, { ...chat.component(), event: 'select', value: 'refund' })
    const approval = chat.component()
    capabilities.length = 0
    await sendInteraction(chat.controller, { ...approval, event: 'approve' })
    expect(chat.refunds).toHaveLength(0)
    expect(chat.session.traces().at(-1)).toMatchObject({ routeId: 'approve', outcome: 'error' })
    expect(chat.session.getSnapshot().state).toBe('approving')
    const token = (approval.part.props as { token: string }).token
    expect(chat.confirmationsFor('desk-1').getSnapshot().find((record) => record.token === token)).toMatchObject({ status: 'rejected', decidedBy: 'policy' })
  })

  it('reship needs no confirmation', async () => {
    const chat = desk()
    await chat.controller.send('/refund')
    await sendInteraction(chat.controller, { ...chat.component(), event: 'select', value: 'reship' })
    expect(chat.answer()?.content).toBe('A new parcel is on its way.')
    expect(chat.confirmationsFor('desk-1').getSnapshot()).toHaveLength(0)
  })
})

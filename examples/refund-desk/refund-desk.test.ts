import { describe, expect, it } from 'vitest'
import { createChatController } from '../../src/controller/index.js'
import { createChatSession, type ComponentPart, type Message } from '../../src/index.js'
import { sendInteraction } from '../../src/components/index.js'
import { memoryConfirmationLedger } from '../../src/conversation/actions.js'
import { createRefundDesk } from './definition.js'

/** The refund desk end to end: a choice carrying an action, the proposal shown as an approval request, one execution, the policy at approval. */

function desk(options: { capabilities?: string[]; ledger?: ReturnType<typeof memoryConfirmationLedger>; clock?: { now: number } } = {}) {
  const refunds: string[] = []
  const capabilities = options.capabilities ?? ['billing:write']
  const clock = options.clock ?? { now: Date.parse('2026-03-01T10:00:00Z') }
  const { definition, confirmationsFor } = createRefundDesk({
    refund: (order, key) => refunds.push(`${order}:${key ?? ''}`),
    capabilities: () => capabilities,
    now: () => clock.now,
    ...(options.ledger === undefined ? {} : { ledger: options.ledger }),
  })
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
  const chooseRefund = async (): Promise<string> => {
    await controller.send('/refund')
    await sendInteraction(controller, { ...component(), event: 'select', value: 'refund' })
    const approval = component()
    expect(approval.part.componentKey).toBe('approval-request')
    return (approval.part.props as { token: string }).token
  }
  return { refunds, session, controller, answer, component, confirmationsFor, capabilities, clock, chooseRefund }
}

describe('refund desk example', () => {
  it('choose Refund → the built-in path proposes it and answers with an approval request bound to the record', async () => {
    const chat = desk()
    const token = await chat.chooseRefund()
    const approval = chat.component()
    expect(chat.answer()?.content).toContain('A refund needs a second pair of eyes.')
    expect(approval.part.props).toMatchObject({ token, title: 'Refund 40 EUR', action: { name: 'refund', input: { order: 'A-17', amount: 40 } } })
    expect(chat.session.traces().at(-1)).toMatchObject({ routeId: 'choice-action', outcome: 'ok' })
    expect(chat.session.getSnapshot().state).toBe('approving')
    const record = await chat.confirmationsFor('desk-1').get(token)
    expect(record).toMatchObject({ status: 'pending', action: { name: 'refund', input: { order: 'A-17', amount: 40 } } })
    // nothing ran yet: a proposal is not an execution
    expect(chat.refunds).toHaveLength(0)
  })

  it('a double click, then a reload (a new coordinator on the same ledger) and another click: refunded once', async () => {
    const ledger = memoryConfirmationLedger()
    const chat = desk({ ledger })
    const token = await chat.chooseRefund()
    const coordinator = chat.confirmationsFor('desk-1')
    const [first, second] = await Promise.all([coordinator.approve(token, 'desk-1'), coordinator.approve(token, 'desk-1')])
    expect([first.status, second.status]).toEqual(['approved', 'approved'])
    expect(chat.refunds).toHaveLength(1)
    expect(chat.refunds[0]).toMatch(/^A-17:.+/)

    const reloaded = desk({ ledger })
    const again = await reloaded.confirmationsFor('desk-1').approve(token, 'desk-1')
    expect(again.status).toBe('approved')
    expect(reloaded.refunds).toHaveLength(0)
    expect(chat.refunds).toHaveLength(1)
  })

  it('a second click on the choice is refused by the session: one proposal', async () => {
    const chat = desk()
    await chat.controller.send('/refund')
    const choice = chat.component()
    await sendInteraction(chat.controller, { ...choice, event: 'select', value: 'refund' })
    await sendInteraction(chat.controller, { ...choice, event: 'select', value: 'refund' })
    expect(chat.answer()?.content).toBe('That was already answered.')
    expect(await chat.confirmationsFor('desk-1').list()).toHaveLength(1)
  })

  it('approving after expiry expires the record and never refunds', async () => {
    const chat = desk()
    const token = await chat.chooseRefund()
    chat.clock.now += 5 * 60_000 + 1
    const decided = await chat.confirmationsFor('desk-1').approve(token, 'desk-1')
    expect(decided.status).toBe('expired')
    expect(chat.refunds).toHaveLength(0)
  })

  it('a capability revoked between the proposal and the approval blocks the refund', async () => {
    const chat = desk()
    const token = await chat.chooseRefund()
    chat.capabilities.length = 0
    const decided = await chat.confirmationsFor('desk-1').approve(token, 'desk-1')
    expect(decided).toMatchObject({ status: 'rejected', decidedBy: 'policy' })
    expect(chat.refunds).toHaveLength(0)
  })

  it('without the capability nothing is proposed: the route fails and the state stays', async () => {
    const chat = desk({ capabilities: [] })
    await chat.controller.send('/refund')
    await sendInteraction(chat.controller, { ...chat.component(), event: 'select', value: 'refund' })
    expect(chat.session.traces().at(-1)).toMatchObject({ routeId: 'choice-action', outcome: 'error' })
    expect(chat.session.getSnapshot().state).toBe('choosing')
    expect(await chat.confirmationsFor('desk-1').list()).toHaveLength(0)
  })

  it('reship needs no confirmation', async () => {
    const chat = desk()
    await chat.controller.send('/refund')
    await sendInteraction(chat.controller, { ...chat.component(), event: 'select', value: 'reship' })
    expect(chat.answer()?.content).toBe('A new parcel is on its way.')
    expect(chat.confirmationsFor('desk-1').getSnapshot()).toHaveLength(0)
  })
})

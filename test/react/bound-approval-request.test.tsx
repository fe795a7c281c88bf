// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { preloadComponentUI } from '../../renderers/react/component-ui-loader.js'
import { messageUIKit } from '../../renderers/react/message-ui-kit.js'
import { approvalRequestView, BoundApprovalRequest, coordinatorApprovals, PendingApprovals, serverApprovals } from '../../renderers/react/actions.js'
import { memoryConfirmationLedger } from '../../src/conversation/actions.js'
import { createRefundDesk } from '../../examples/refund-desk/definition.js'

/** The approval request bound to its record in a chat: status from the record, one execution whatever the clicks, reloads and clock. */

afterEach(cleanup)
beforeAll(async () => { await preloadMessageUI(); await preloadComponentUI(messageUIKit) })

function desk(shared: { ledger: ReturnType<typeof memoryConfirmationLedger>; refunds: string[]; clock: { now: number } }) {
  const { definition, confirmationsFor } = createRefundDesk({ refund: (order) => shared.refunds.push(order), capabilities: () => ['billing:write'], ledger: shared.ledger, now: () => shared.clock.now })
  const views = { 'approval-request': approvalRequestView(coordinatorApprovals(confirmationsFor('desk-1')), { now: () => shared.clock.now }) }
  return { definition, views }
}

async function chooseRefund(): Promise<HTMLElement> {
  const input = screen.getByRole('textbox')
  fireEvent.change(input, { target: { value: '/refund' } })
  fireEvent.submit(input.closest('form') as HTMLFormElement)
  const refund = await screen.findByRole('option', { name: /Refund 40 EUR/ })
  act(() => {
    fireEvent.click(refund)
    fireEvent.click(refund)
  })
  return await waitFor(() => {
    const bound = document.querySelector<HTMLElement>('[data-chatrail-approval-bound="ready"]')
    if (!bound) throw new Error('no bound approval yet')
    return bound
  })
}

describe('approval-request bound to its confirmation record', () => {
  it('a double click on the choice proposes once; a double click on Approve executes once; the card shows Approved from the record', async () => {
    const shared = { ledger: memoryConfirmationLedger(), refunds: [] as string[], clock: { now: Date.UTC(2030, 0, 1) } }
    const { definition, views } = desk(shared)
    render(<ChatSession definition={definition} options={{ sessionId: 'desk-1' }} componentViews={views} />)
    const bound = await chooseRefund()
    expect(await shared.ledger.listConfirmations('desk-1')).toHaveLength(1)
    const approve = within(bound).getByRole('button', { name: 'Approve' })
    act(() => {
      fireEvent.click(approve)
      fireEvent.click(approve)
    })
    await waitFor(() => expect(bound.querySelector('[data-chatrail-approval-state]')?.getAttribute('data-chatrail-approval-state')).toBe('approved'))
    expect(shared.refunds).toEqual(['A-17'])
  })

  it('after a reload the card reads the decided record: no buttons, nothing executes again', async () => {
    const shared = { ledger: memoryConfirmationLedger(), refunds: [] as string[], clock: { now: Date.UTC(2030, 0, 1) } }
    const first = desk(shared)
    const { unmount } = render(<ChatSession definition={first.definition} options={{ sessionId: 'desk-1' }} componentViews={first.views} />)
    const bound = await chooseRefund()
    act(() => void fireEvent.click(within(bound).getByRole('button', { name: 'Approve' })))
    await waitFor(() => expect(shared.refunds).toEqual(['A-17']))
    const [record] = await shared.ledger.listConfirmations('desk-1')
    unmount()

    // a new page over the same ledger: a fresh coordinator reads the token from the store
    const reloaded = createRefundDesk({ refund: (order) => shared.refunds.push(order), capabilities: () => ['billing:write'], ledger: shared.ledger }).confirmationsFor('desk-1')
    const props = { token: record?.token ?? '', title: 'Refund 40 EUR', action: { name: 'refund', input: { order: 'A-17' } } }
    const { container } = render(<BoundApprovalRequest source={coordinatorApprovals(reloaded)} props={props} />)
    await waitFor(() => expect(container.querySelector('[data-chatrail-approval-state]')?.getAttribute('data-chatrail-approval-state')).toBe('approved'))
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
    // and a stale client that approves anyway gets the decided record back
    expect((await coordinatorApprovals(reloaded).approve(props.token)).status).toBe('approved')
    expect(shared.refunds).toEqual(['A-17'])
  })

  it('a card left open past expiry: Approve expires the record and never executes', async () => {
    const shared = { ledger: memoryConfirmationLedger(), refunds: [] as string[], clock: { now: Date.UTC(2030, 0, 1) } }
    const { definition, views } = desk(shared)
    render(<ChatSession definition={definition} options={{ sessionId: 'desk-1' }} componentViews={views} />)
    const bound = await chooseRefund()
    const approve = within(bound).getByRole('button', { name: 'Approve' })
    shared.clock.now += 5 * 60_000 + 1
    act(() => void fireEvent.click(approve))
    await waitFor(() => expect(bound.querySelector('[data-chatrail-approval-state]')?.getAttribute('data-chatrail-approval-state')).toBe('expired'))
    expect(shared.refunds).toEqual([])
  })
})

describe('<PendingApprovals>', () => {
  it('shows the records no message shows; approving one executes once and keeps its outcome; one an approval request shows is left to it', async () => {
    const shared = { ledger: memoryConfirmationLedger(), refunds: [] as string[], clock: { now: Date.UTC(2030, 0, 1) } }
    const { definition, views } = desk(shared)
    const { confirmationsFor } = createRefundDesk({ refund: (order) => shared.refunds.push(order), capabilities: () => ['billing:write'], ledger: shared.ledger, now: () => shared.clock.now })
    const outside = confirmationsFor('desk-1')
    const source = coordinatorApprovals(outside)
    // proposed by the app, outside any message
    await outside.propose({ name: 'refund', input: { order: 'B-2' } })
    render(<ChatSession definition={definition} options={{ sessionId: 'desk-1' }} componentViews={views}><PendingApprovals source={source} now={() => shared.clock.now} /></ChatSession>)
    const panel = await screen.findByRole('region', { name: 'Actions waiting for approval' })
    expect(within(panel).getAllByRole('region')).toHaveLength(1)
    expect(panel.textContent).toContain('"order": "B-2"')
    // a proposal through the chat is drawn by its approval request, not in the panel
    await chooseRefund()
    await waitFor(() => expect(shared.ledger.listConfirmations('desk-1').then((records) => records.length)).resolves.toBe(2))
    expect(within(panel).getAllByRole('region')).toHaveLength(1)
    const approve = within(panel).getByRole('button', { name: 'Approve' })
    act(() => {
      fireEvent.click(approve)
      fireEvent.click(approve)
    })
    await waitFor(() => expect(panel.querySelector('[data-chatrail-approval-state]')?.getAttribute('data-chatrail-approval-state')).toBe('approved'))
    expect(shared.refunds).toEqual(['B-2'])
  })
})

describe('a token the source does not know', () => {
  it('shows the standard request, whose Approve is a chat interaction', async () => {
    const sent: unknown[] = []
    const source = { read: async () => undefined, approve: async () => { throw new Error('not here') }, reject: async () => { throw new Error('not here') } }
    const view = approvalRequestView(source)
    const props = { token: 'ct-unknown', title: 'Deploy', action: { name: 'deploy', input: { env: 'prod' } } }
    const { container } = render(<>{view({ part: {} as never, props, messageId: 'a1', answered: undefined, interact: (event) => void sent.push(event) })}</>)
    const approve = await screen.findByRole('button', { name: 'Approve' })
    expect(container.querySelector('[data-chatrail-approval-bound]')).toBeNull()
    act(() => void fireEvent.click(approve))
    expect(sent).toEqual(['approve'])
  })
})

describe('serverApprovals', () => {
  it('reads through list-actions and decides through approve-action / reject-action; a server error is thrown with its message', async () => {
    const bodies: unknown[] = []
    const record = { token: 'ct-aaaaaaaaaaaaaaaaaaaaaa', status: 'pending', action: { name: 'refund', input: {} }, toolCallId: 'c1', expiresAt: 1 }
    const fetch = (async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as { action: string }
      bodies.push(body)
      if (body.action === 'list-actions') return new Response(JSON.stringify({ confirmations: [record] }), { status: 200 })
      if (body.action === 'approve-action') return new Response(JSON.stringify({ confirmation: { ...record, status: 'approved' } }), { status: 200 })
      return new Response(JSON.stringify({ error: 'not_found', message: 'No such confirmation.' }), { status: 404 })
    }) as typeof globalThis.fetch
    const source = serverApprovals({ api: '/api/chat', conversationId: 'c-1', fetch })
    expect((await source.read(record.token))?.status).toBe('pending')
    expect((await source.approve(record.token)).status).toBe('approved')
    await expect(source.reject(record.token, 'no')).rejects.toThrow('No such confirmation.')
    const unconfigured = serverApprovals({ api: '/api/chat', conversationId: 'c-1', fetch: (async () => new Response(JSON.stringify({ error: 'confirmations_not_configured' }), { status: 501 })) as typeof globalThis.fetch })
    expect(await unconfigured.read(record.token)).toBeUndefined()
    await expect(unconfigured.approve(record.token)).rejects.toThrow('501 (confirmations_not_configured)')
    expect(bodies).toEqual([{ id: 'c-1', action: 'list-actions' }, { id: 'c-1', action: 'approve-action', token: record.token }, { id: 'c-1', action: 'reject-action', token: record.token, reason: 'no' }])
  })
})

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { ActionApprovalCard } from '../../renderers/react/action-approval-card.js'
import { useActionConfirmation } from '../../renderers/react/use-action-confirmation.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import type { ActionConfirmationCoordinator } from '../../src/conversation/action-confirmation.js'
import { createActionConfirmation } from '../../src/conversation/actions.js'

afterEach(cleanup)

const T0 = Date.UTC(2030, 0, 1)

function setup() {
  let time = T0
  const runs: unknown[] = []
  const refund: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: async (input) => { runs.push(input); await new Promise((resolve) => setTimeout(resolve, 5)) } }
  const confirmations = createActionConfirmation({ sessionId: 's1', tools: [refund], now: () => time, ttlMs: 60_000 })
  return { confirmations, runs, now: () => time, advance: (ms: number) => void (time += ms) }
}

function Card({ confirmations, token, now }: { confirmations: ActionConfirmationCoordinator; token: string; now: () => number }): ReactNode {
  const record = useActionConfirmation(confirmations, token)
  if (!record) return null
  return <ActionApprovalCard record={record} now={now} onApprove={(t) => confirmations.approve(t, 's1')} onReject={(t) => confirmations.reject(t, 's1', 'not now')} />
}

describe('<ActionApprovalCard>', () => {
  it('shows the action and its input; a double click approves once and the card shows Approved', async () => {
    const { confirmations, runs, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    render(<Card confirmations={confirmations} token={token} now={now} />)
    const card = screen.getByRole('region', { name: 'Confirm refund' })
    expect(card.textContent).toContain('"amount": 5')
    const approve = screen.getByRole('button', { name: 'Approve' })
    act(() => {
      fireEvent.click(approve)
      fireEvent.click(approve)
    })
    await waitFor(() => expect(card.getAttribute('data-chatrail-approval-state')).toBe('approved'))
    expect(screen.getByRole('status').textContent).toBe('Approved')
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(runs).toEqual([{ amount: 5 }])
  })

  it('reject shows the reason and never executes', async () => {
    const { confirmations, runs, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 1 } })
    render(<Card confirmations={confirmations} token={token} now={now} />)
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Reject' })))
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Rejected: not now'))
    expect(runs).toEqual([])
  })

  it('an expired proposal shows Expired and no buttons, before and after it is swept', async () => {
    const { confirmations, runs, now, advance } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: {} })
    advance(60_000)
    render(<Card confirmations={confirmations} token={token} now={now} />)
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(screen.getByRole('status').textContent).toBe('Expired')
    await act(async () => void (await confirmations.sweepExpired()))
    expect(screen.getByRole('region', { name: 'Confirm refund' }).getAttribute('data-chatrail-approval-state')).toBe('expired')
    expect(runs).toEqual([])
  })

  it('a failing decision is shown as an alert and the buttons come back', async () => {
    render(<ActionApprovalCard record={{ token: 'ct-x', status: 'pending', action: { name: 'refund', input: {} }, expiresAt: T0 + 1000 }} now={() => T0} onApprove={() => Promise.reject(new Error('network down'))} onReject={() => Promise.resolve()} />)
    act(() => void fireEvent.click(screen.getByRole('button', { name: 'Approve' })))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('network down'))
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false)
  })
})

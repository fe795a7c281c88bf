import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { InkChat } from '../../renderers/ink/ink-chat.js'
import { coordinatorApprovals } from '../../src/view/approval-source.js'
import { memoryConfirmationLedger } from '../../src/conversation/actions.js'
import { createRefundDesk } from '../../examples/refund-desk/definition.js'
import { waitForFrame } from './frames.js'
import { keys } from './keys.js'

/** <InkChat approvals>: a choice's action → an approval prompt bound to the record; y approves once. */

afterEach(() => cleanup())

async function press(rendered: ReturnType<typeof render>, ...sequence: string[]) {
  for (const bytes of sequence) {
    rendered.stdin.write(bytes)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

describe('approval requests in <InkChat>', () => {
  it('choosing Refund shows the bound prompt; y y approves once; the prompt shows Approved from the record', async () => {
    const refunds: string[] = []
    const ledger = memoryConfirmationLedger()
    const { definition, confirmationsFor } = createRefundDesk({ refund: (order) => refunds.push(order), capabilities: () => ['billing:write'], ledger })
    const approvals = coordinatorApprovals(confirmationsFor('ink-1'))
    const r = render(<InkChat definition={definition} options={{ sessionId: 'ink-1' }} approvals={approvals} />)
    await press(r, '/refund', keys.enter)
    await waitForFrame(r, (f) => f.includes('Enter choose'))
    await press(r, '2')
    const prompt = await waitForFrame(r, (f) => f.includes('y / Enter approve'))
    expect(prompt).toContain('Confirm refund')
    expect(prompt).toContain('"order": "A-17"')
    await press(r, 'y', 'y')
    await waitForFrame(r, (f) => f.includes('Approved'))
    expect(refunds).toEqual(['A-17'])
    // decided: the prompt stays on screen with the outcome, and the keys go to the composer again
    await waitForFrame(r, (f) => f.includes('Approved') && !f.includes('Esc closes the picker'))
    await press(r, 'y')
    expect(refunds).toEqual(['A-17'])
    expect((await ledger.listConfirmations('ink-1')).map((record) => record.status)).toEqual(['approved'])
  })

  it('without approvals the request shows its summary and offers no keys', async () => {
    const { definition } = createRefundDesk({ refund: () => undefined, capabilities: () => ['billing:write'] })
    const r = render(<InkChat definition={definition} options={{ sessionId: 'ink-2' }} />)
    await press(r, '/refund', keys.enter)
    await waitForFrame(r, (f) => f.includes('Enter choose'))
    await press(r, '2')
    const frame = await waitForFrame(r, (f) => f.includes('A refund needs a second pair of eyes.'))
    expect(frame).not.toContain('y / Enter approve')
  })
})

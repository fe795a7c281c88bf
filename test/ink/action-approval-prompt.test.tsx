import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { ActionApprovalPrompt } from '../../renderers/ink/action-approval-prompt.js'
import { useActionConfirmation } from '../../renderers/react/use-action-confirmation.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import type { ActionConfirmationCoordinator } from '../../src/conversation/action-confirmation.js'
import { createActionConfirmation } from '../../src/conversation/actions.js'
import { frameText, waitForFrame } from './frames.js'

/** Issue 30: an approval card in Ink, over the same confirmation records as React's card. */

afterEach(() => cleanup())

const T0 = Date.UTC(2030, 0, 1)

function setup() {
  let time = T0
  const runs: unknown[] = []
  const refund: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: async (input) => { runs.push(input); await new Promise((resolve) => setTimeout(resolve, 5)) } }
  const confirmations = createActionConfirmation({ sessionId: 's1', tools: [refund], now: () => time, ttlMs: 60_000 })
  return { confirmations, runs, now: () => time, advance: (ms: number) => void (time += ms) }
}

function Prompt({ confirmations, token, now, approve }: { confirmations: ActionConfirmationCoordinator; token: string; now: () => number; approve?: (token: string) => Promise<unknown> }) {
  const record = useActionConfirmation(confirmations, token)
  if (!record) return null
  return <ActionApprovalPrompt record={record} now={now} onApprove={approve ?? ((t) => confirmations.approve(t, 's1'))} onReject={(t) => confirmations.reject(t, 's1', 'not now')} />
}

const press = async (r: ReturnType<typeof render>, keys: string): Promise<void> => {
  r.stdin.write(keys)
  await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('<ActionApprovalPrompt>', () => {
  it('shows the action and its input; y twice approves once, and the prompt shows Approved', async () => {
    const { confirmations, runs, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    const r = render(<Prompt confirmations={confirmations} token={token} now={now} />)
    expect(frameText(r)).toMatch(/Confirm refund[\s\S]*"amount": 5[\s\S]*y \/ Enter approve · n reject/)
    r.stdin.write('y')
    r.stdin.write('y')
    await waitForFrame(r, (frame) => frame.includes('Approved'))
    expect(runs).toEqual([{ amount: 5 }])
    await press(r, 'y')
    expect(runs).toHaveLength(1)
  })

  it('n rejects with the reason shown; nothing runs', async () => {
    const { confirmations, runs, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    const r = render(<Prompt confirmations={confirmations} token={token} now={now} />)
    await press(r, 'n')
    await waitForFrame(r, (frame) => frame.includes('Rejected: not now'))
    expect(runs).toEqual([])
  })

  it('an expired proposal offers no keys and never runs', async () => {
    const { confirmations, runs, now, advance } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    advance(61_000)
    const r = render(<Prompt confirmations={confirmations} token={token} now={now} />)
    expect(frameText(r)).toContain('Expired')
    expect(frameText(r)).not.toContain('y / Enter approve')
    await press(r, 'y')
    expect(runs).toEqual([])
  })

  it('a failed call shows its error and offers the keys again', async () => {
    const { confirmations, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { amount: 5 } })
    let calls = 0
    const failing = async (): Promise<never> => {
      calls += 1
      throw new Error('server unreachable')
    }
    const r = render(<Prompt confirmations={confirmations} token={token} now={now} approve={failing} />)
    await press(r, 'y')
    const frame = await waitForFrame(r, (text) => text.includes('✗ server unreachable'))
    expect(frame).toContain('y / Enter approve')
    await press(r, '\r')
    expect(calls).toBe(2)
  })

  it('shows a hostile input as text: control characters as symbols, long input cut to 8 lines', async () => {
    const { confirmations, now } = setup()
    const { token } = await confirmations.propose({ name: 'refund', input: { note: '\u001b]0;pwned\u0007', items: Array.from({ length: 20 }, (_, i) => i) } })
    const r = render(<Prompt confirmations={confirmations} token={token} now={now} />)
    const frame = frameText(r)
    expect(r.lastFrame()).not.toContain('\u001b]0;')
    expect(frame).toMatch(/more lines/)
  })
})

import { describe, expect, it } from 'vitest'
import { restoredMessages } from '../../src/client/restored-messages.js'

// A conversation restored while the server's tool loop awaits an approval (docs/server.md § Tool
// approval): the pending call is not shown as a finished one.

describe('restored tool calls awaiting or refused approval', () => {
  it('approval-requested and approval-responded calls await confirmation; a denied call is an error that ran nothing', () => {
    const [answer] = restoredMessages([{
      id: 'a1',
      role: 'assistant',
      parts: [
        { type: 'tool-pay', toolCallId: 'c1', state: 'approval-requested', input: { amount: 5 } },
        { type: 'tool-pay', toolCallId: 'c2', state: 'approval-responded', input: { amount: 6 } },
        { type: 'tool-pay', toolCallId: 'c3', state: 'output-denied', input: { amount: 7 } },
        { type: 'tool-pay', toolCallId: 'c4', state: 'output-available', input: { amount: 8 }, output: { paid: 8 } },
      ],
    }], new Date(0))
    expect(answer?.toolCalls).toEqual([
      { id: 'c1', name: 'pay', args: { amount: 5 }, status: 'requires_confirmation' },
      { id: 'c2', name: 'pay', args: { amount: 6 }, status: 'requires_confirmation' },
      { id: 'c3', name: 'pay', args: { amount: 7 }, status: 'error', error: 'Denied by the user.' },
      { id: 'c4', name: 'pay', args: { amount: 8 }, status: 'complete', result: '{"paid":8}' },
    ])
  })
})

import { describe, expect, it } from 'vitest'
import { createCausalOrder } from '../../../src/agents/claude-code/causal-order.js'
import { createTranscriptFold } from '../../../src/agents/claude-code/transcript-fold.js'

/**
 * Issue 15 item 9: lines are keyed by their whole uuid. Two uuids that share the first 8 and the
 * last 5 hex digits (time-ordered ids minted in the same minute do) are two lines, not one.
 */

const A = 'aaaaaaaa-0000-4000-8000-00000000bbbb'
const B = 'aaaaaaaa-ffff-4fff-bfff-fffffff0bbbb'

function line(uuid: string, parent: string | null, text: string): Record<string, unknown> {
  return { type: 'user', uuid, parentUuid: parent, sessionId: 's', timestamp: '2026-07-01T10:00:00.000Z', message: { role: 'user', content: text } }
}

describe('transcript fold: uuid keys', () => {
  it('keeps both prompts of two uuids that agree in their first 8 and last 5 hex digits', () => {
    expect(A.slice(0, 8)).toBe(B.slice(0, 8))
    expect(A.slice(-5)).toBe(B.slice(-5))
    const fold = createTranscriptFold()
    fold.push(line(A, null, 'first prompt'))
    fold.push(line(B, A, 'second prompt'))
    expect(fold.snapshot().messages.map((m) => m.text)).toEqual(['first prompt', 'second prompt'])
  })

  it('the causal order tells the two ids apart: a child of one is not committed by the other', () => {
    const committed: string[] = []
    const order = createCausalOrder<string>((value) => committed.push(value))
    order.push({ uuid: A, value: 'a' })
    order.push({ uuid: 'cccccccc-0000-4000-8000-000000000001', parent: B, value: 'child of b' })
    expect(order.seen(A)).toBe(true)
    expect(order.seen(B)).toBe(false)
    expect(committed).toEqual(['a'])
    order.push({ uuid: B, value: 'b' })
    expect(committed).toEqual(['a', 'b', 'child of b'])
  })

  it('still drops a true duplicate line (same uuid written twice)', () => {
    const fold = createTranscriptFold()
    fold.push(line(A, null, 'once'))
    fold.push(line(A, null, 'once'))
    expect(fold.snapshot().messages).toHaveLength(1)
  })
})

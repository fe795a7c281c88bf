import { describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createTimeline, type Timeline } from '../../src/conversation/decisions.js'
import { compileMachine } from '../../src/conversation/machine.js'
import { buildRouteIndex } from '../../src/conversation/route-index.js'

// The timeline keeps the messages a reconciliation has not anchored in scratch columns it reuses
// (issue 20). A reconciliation nested in one (a re-derived turn's route syncing its session) must
// get columns of its own, or it clears the outer one's mid-walk.

const machine = compileMachine({ initial: 's', states: { s: {} }, routes: [], context: {} })
const message = (id: string, role: 'user' | 'assistant', chatrail?: object): Message => ({ id, role, content: id, status: 'complete', createdAt: new Date(0), ...(chatrail ? { metadata: { chatrail } } : {}) })
/** An answer carrying a well-formed record that `trusted` below refuses: its turn is re-derived. */
const answer = (id: string, of: string): Message => message(id, 'assistant', { v: 1, messageId: of, input: '0', kind: 'agentic', fromState: 's', toState: 's', turnId: 't' })

describe('timeline scratch columns', () => {
  it('a reconciliation nested in a re-derivation leaves the outer one\'s messages intact', () => {
    const rederived: string[] = []
    let nested = false
    const timeline: Timeline = createTimeline(machine, buildRouteIndex([]), machine.initial, () => false, (user) => {
      rederived.push(user.id)
      if (!nested) {
        nested = true
        timeline.reconcile([message('other', 'user')])
      }
      return undefined
    })
    timeline.reconcile([message('u1', 'user'), answer('a1', 'u1'), message('u2', 'user'), answer('a2', 'u2'), message('u3', 'user')])
    // Both answered messages of the outer history were re-derived, the second after the nested sync.
    expect(rederived).toEqual(['u1', 'u2'])
    // And the next reconciliation reuses the columns cleanly.
    timeline.reconcile([message('v1', 'user')])
    expect(timeline.lastUser()?.message.id).toBe('v1')
  })
})

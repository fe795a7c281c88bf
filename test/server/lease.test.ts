import { describe, expect, it } from 'vitest'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { countingAgent, deliveryDefinition, eventually, listen, sendTurn, userMessage } from './support/harness.js'

// A turn holds the conversation's lease for as long as it streams: the handler renews it, so a
// turn that outlives `leaseMs` is not taken over. The store reads a hand-moved clock, so the test
// does not depend on how fast the machine is: time passes only when the test says so.

describe('createChatHandler: the turn lease', () => {
  it('is renewed while the turn streams, so a turn longer than leaseMs is never taken over', async () => {
    let now = Date.UTC(2030, 0, 1)
    const base = memoryStore({ clock: () => now })
    let renewals = 0
    const store: ConversationStore = { ...base, renew: async (lease, options) => { const renewed = await base.renew(lease, options); renewals++; return renewed } }
    const agent = countingAgent('I am the agent.')
    const http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', limits: { leaseMs: 300 }, clock: () => now }))
    try {
      const open = agent.hold()
      const running = sendTurn(http.url, 'c1', [userMessage('u1', 'hello')])
      await eventually(async () => agent.calls() === 1)
      for (let step = 0; step < 4; step++) {
        now += 250 // past the first lease's expiry after two steps
        const seen = renewals
        await eventually(async () => renewals > seen)
        const other = await store.claim('c1', `intruder-${step}`, { leaseMs: 300 })
        expect(other.status).toBe('busy')
      }
      open()
      expect((await running).text).toBe('I am the agent.')
      expect((await store.load('c1'))?.messages.map((m) => m.content)).toEqual(['hello', 'I am the agent.'])
    } finally {
      await http.close()
    }
  })
})

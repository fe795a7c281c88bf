import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition, listen, sendTurn, userMessage, type Listening } from './support/harness.js'

// A POST reads the conversation before claiming its lease (so another principal's id is 404, not
// 409) and plans on that read. The claim reports the version it found: when it is the one read,
// nothing wrote in between and the handler skips loading again under the lease; when another
// instance wrote in between, the handler loads again and runs the turn on the new history.

interface Counted {
  readonly store: ConversationStore
  /** Loads since the last call. */
  loads: () => number
  /** Runs `work` once, inside the next claim, before the store takes the lease. */
  beforeNextClaim: (work: () => Promise<unknown>) => void
}

/** The base store seen through a wrapper that counts loads and can let another writer in before a claim. */
function counted(base: ConversationStore, options: { reportsVersion: boolean }): Counted {
  let loads = 0
  let pending: (() => Promise<unknown>) | undefined
  return {
    store: {
      ...base,
      load: (conversationId) => {
        loads++
        return base.load(conversationId)
      },
      claim: async (conversationId, turnId, claimOptions) => {
        const work = pending
        pending = undefined
        await work?.()
        const claimed = await base.claim(conversationId, turnId, claimOptions)
        if (options.reportsVersion || claimed.status !== 'claimed') return claimed
        // a store written before `ClaimResult.current` existed
        return { status: 'claimed', lease: claimed.lease }
      },
    },
    loads: () => {
      const n = loads
      loads = 0
      return n
    },
    beforeNextClaim: (work) => {
      pending = work
    },
  }
}

describe('createChatHandler: the load under the lease', () => {
  const servers: Listening[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })

  for (const reportsVersion of [true, false]) {
    const label = reportsVersion ? 'a claim that reports the version' : 'a store whose claim does not report the version'

    it(`${label}: a POST nobody interferes with ${reportsVersion ? 'loads once' : 'loads twice'} and answers on the stored history`, async () => {
      const agent = countingAgent()
      const base = memoryStore()
      const wrapped = counted(base, { reportsVersion })
      const http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store: wrapped.store, authenticate: 'none' }))
      servers.push(http)
      expect((await sendTurn(http.url, 'c1', [userMessage('u1', '/start')])).chatrail?.state).toBe('asking')
      expect(wrapped.loads()).toBe(reportsVersion ? 1 : 2)
      const booked = await sendTurn(http.url, 'c1', [userMessage('u2', 'deliver on 2030-01-05')])
      expect(wrapped.loads()).toBe(reportsVersion ? 1 : 2)
      expect(booked.text).toBe('Booked for 2030-01-05.')
      expect(booked.chatrail?.state).toBe('booked')
      expect((await base.load('c1'))?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?', 'deliver on 2030-01-05', 'Booked for 2030-01-05.'])
    })

    it(`${label}: another instance's turn between the first read and the claim is loaded, and the turn runs on it`, async () => {
      const agent = countingAgent('I am the agent.')
      const base = memoryStore()
      const wrapped = counted(base, { reportsVersion })
      const definition = deliveryDefinition(agent)
      const first = await listen(createChatHandler({ definition, store: wrapped.store, authenticate: 'none' }))
      const other = await listen(createChatHandler({ definition, store: base, authenticate: 'none' }))
      servers.push(first, other)
      await sendTurn(first.url, 'c1', [userMessage('u1', '/start')])
      wrapped.loads()
      // The first instance reads 'asking' (where a date books); before its claim, the other instance
      // cancels (back to 'idle', where no route takes a date and the agent answers).
      wrapped.beforeNextClaim(async () => {
        const cancelled = await sendTurn(other.url, 'c1', [userMessage('u2', 'Cancel', { chatrail: { event: 'cancel' } })])
        expect(cancelled.chatrail?.state).toBe('idle')
      })
      const reply = await sendTurn(first.url, 'c1', [userMessage('u3', 'deliver on 2030-01-05')])
      expect(wrapped.loads()).toBe(2)
      expect(reply.text).toBe('I am the agent.')
      expect(reply.chatrail?.state).toBe('idle')
      expect(agent.calls()).toBe(1)
      // nothing lost, nothing duplicated, in the order the turns ran
      expect((await base.load('c1'))?.messages.map((m) => m.content)).toEqual(['/start', 'Which day?', 'Cancel', 'Cancelled.', 'deliver on 2030-01-05', 'I am the agent.'])
    })
  }

  it('a conversation deleted and written again up to the version read is loaded again (its write time differs)', async () => {
    let now = Date.UTC(2030, 0, 1)
    const agent = countingAgent('I am the agent.')
    const base = memoryStore({ clock: () => now })
    const wrapped = counted(base, { reportsVersion: true })
    const definition = deliveryDefinition(agent)
    const first = await listen(createChatHandler({ definition, store: wrapped.store, authenticate: 'none', clock: () => now }))
    const other = await listen(createChatHandler({ definition, store: base, authenticate: 'none', clock: () => now }))
    servers.push(first, other)
    await sendTurn(first.url, 'c1', [userMessage('u1', '/start')])
    wrapped.loads()
    // Read at version 1 ('asking'); before the claim, the conversation is deleted and written again
    // to version 1 ('idle'), a millisecond later.
    wrapped.beforeNextClaim(async () => {
      expect((await fetch(`${other.url}?id=c1`, { method: 'DELETE' })).status).toBe(200)
      now += 1
      await sendTurn(other.url, 'c1', [userMessage('u9', 'hello')])
      expect((await base.load('c1'))?.version).toBe(1)
    })
    const reply = await sendTurn(first.url, 'c1', [userMessage('u3', 'deliver on 2030-01-05')])
    expect(wrapped.loads()).toBe(2)
    expect(reply.chatrail?.state).toBe('idle')
    expect((await base.load('c1'))?.messages.map((m) => m.content)).toEqual(['hello', 'I am the agent.', 'deliver on 2030-01-05', 'I am the agent.'])
  })
})

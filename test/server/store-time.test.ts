import { describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { meterStore } from '../../src/server/store-meter.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition } from './support/harness.js'

// The store time a turn spent before its answer's write (issue 33 § timings): summed by the
// handler's clock from every store call the turn made, stored with the answer; never the write's.

/** A store whose every call of `method` moves the shared clock on by `ms` while it runs. */
function slowStore(store: ConversationStore, clock: { now: number }, costs: Partial<Record<keyof ConversationStore, number>>): ConversationStore {
  return new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target)
      const cost = costs[key as keyof ConversationStore]
      if (typeof value !== 'function' || cost === undefined) return value
      return async (...args: unknown[]) => {
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)
        clock.now += cost
        return result
      }
    },
  })
}

const body = (conversationId: string, id: string, text: string): string =>
  JSON.stringify({ id: conversationId, trigger: 'submit-message', messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }] })

describe('store time before the write', () => {
  it('is the sum of the turn\'s store calls before its write (load 5 ms + claim 3 ms), not the write (100 ms)', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) }
    const store = slowStore(memoryStore(), clock, { load: 5, claim: 3, append: 100 })
    const chat = createChatHandler({ definition: deliveryDefinition(countingAgent()), store, authenticate: 'none', clock: () => clock.now })
    const response = await chat(new Request('http://localhost/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body('c1', 'u1', '/start') }))
    await response.text()
    const stored = await store.load('c1')
    expect(stored?.messages[1]?.metadata?.timings).toMatchObject({ storeBeforeWriteMs: 8 })
    await chat.close?.()
  })

  it('meterStore: counts calls that overlap each whole, a rejected call too, and passes everything else through', async () => {
    let now = 0
    const inner = memoryStore()
    const metered = meterStore(inner, () => now)
    expect(metered.store.load).toBe(metered.store.load) // one wrapper per method
    expect(metered.store.appendTurnParts === undefined).toBe(inner.appendTurnParts === undefined)
    const a = metered.store.load('x')
    const b = metered.store.load('y')
    now = 4
    await Promise.all([a, b])
    expect(metered.spentMs()).toBe(8)
    // a call that fails still took its time
    const failing = meterStore({ ...inner, load: async () => { now += 3; throw new Error('store down') } }, () => now)
    await expect(failing.store.load('x')).rejects.toThrow('store down')
    expect(failing.spentMs()).toBe(3)
    await inner.close()
  })
})

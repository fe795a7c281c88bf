import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server/index.js'
import { createBusyRetry } from '../../src/server/busy-retry.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { countingAgent, deliveryDefinition, eventually, listen, userMessage, type Listening } from './support/harness.js'

// `Retry-After` on `409 conversation_busy`: when the running turn is likely to end (the median of
// this handler's recent turns), not when its lease would expire (30 s for a turn of 1.5 s).

const post = (url: string, id: string, text: string): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'c1', messages: [userMessage(id, text)], trigger: 'submit-message' }) })

describe('409 Retry-After', () => {
  let http: Listening
  let store: ConversationStore
  afterEach(async () => {
    await http.close()
    await store.close()
  })

  it('says how long turns take here, not the 30 s lease', async () => {
    let now = 1_000_000
    const clock = (): number => now
    store = memoryStore({ clock })
    const agent = countingAgent('one two')
    http = await listen(createChatHandler({ definition: deliveryDefinition(agent), store, authenticate: 'none', clock }))
    // no turn has ended yet: a small constant
    let open = agent.hold()
    const first = await post(http.url, 'u1', 'first question')
    const busy = await post(http.url, 'u2', 'second question')
    expect(busy.status).toBe(409)
    expect(busy.headers.get('retry-after')).toBe('1')
    // that turn takes 4.2 s by the clock
    now += 4200
    open()
    await first.text()
    await eventually(async () => (await store.load('c1'))?.messages.length === 2)
    open = agent.hold()
    const third = await post(http.url, 'u3', 'third question')
    const busyAgain = await post(http.url, 'u4', 'fourth question')
    expect(busyAgain.status).toBe(409)
    expect(busyAgain.headers.get('retry-after')).toBe('5')
    open()
    await third.text()
  })
})

describe('createBusyRetry', () => {
  it('is the median of the recent turns in whole seconds, at least 1 and never past the lease', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 600_000 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: -1000, max: 60_000 }), (durations, leaseLeft) => {
      const retry = createBusyRetry()
      for (const ms of durations) retry.record(ms)
      const kept = durations.slice(-64).sort((a, b) => a - b)
      const median = kept[Math.floor((kept.length - 1) / 2)] as number
      const lease = Math.max(1, Math.ceil(leaseLeft / 1000))
      expect(retry.seconds(leaseLeft)).toBe(Math.min(lease, Math.max(1, Math.ceil(median / 1000))))
    }))
  })

  it('is 1 before any turn ended', () => {
    expect(createBusyRetry().seconds(30_000)).toBe(1)
  })
})

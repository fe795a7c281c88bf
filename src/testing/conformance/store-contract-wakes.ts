import { expect } from 'vitest'
import type { ConversationStore, StoreWake } from '../../store/conversation-store.js'

/**
 * The store contract's case for `subscribe` (S19; see store-contract.ts). `subscribe` is optional:
 * a store without it passes (its readers poll). A store with it must wake a conversation's
 * subscribers after a committed `signal` (`'signal'`) and a stored batch of turn parts
 * (`'turn-parts'`), not after a write that stored nothing, and never after unsubscribing. `'missed'`
 * may come at any time (a listener that reconnected), so it is left out of what is compared.
 */
export interface WakeCaseEnv {
  readonly store: () => ConversationStore
  readonly check: (invariant: 'S19', title: string, body: () => Promise<void>) => void
}

/** How long a wake may take to arrive (a database round trip), and how long a wake that should not come is waited for. */
const WAKE_WITHIN_MS = 5000
const QUIET_MS = 200

function recorder(store: ConversationStore, subscribe: NonNullable<ConversationStore['subscribe']>, conversationId: string) {
  const reasons: StoreWake[] = []
  let notify: (() => void) | undefined
  const unsubscribe = subscribe.call(store, conversationId, (reason) => {
    if (reason === 'missed') return
    reasons.push(reason)
    notify?.()
  })
  return {
    reasons,
    unsubscribe,
    /** Resolves once `n` wakes (other than `missed`) have come. */
    async until(n: number): Promise<void> {
      const deadline = Date.now() + WAKE_WITHIN_MS
      while (reasons.length < n) {
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`S19: ${reasons.length} wakes of ${conversationId} within ${WAKE_WITHIN_MS} ms, expected ${n}: ${JSON.stringify(reasons)}`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          notify = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
    },
  }
}

const quiet = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, QUIET_MS))

/**
 * Waits until the store's wakes are live: a store may start listening only with its first
 * subscriber (Postgres opens its LISTEN connection then), and a write committed before that wakes
 * its readers with `missed` when the listener comes up, not with its own kind. Signals a warm-up
 * conversation until one of them wakes it.
 */
async function whenListening(store: ConversationStore, subscribe: NonNullable<ConversationStore['subscribe']>): Promise<void> {
  let woken = false
  const unsubscribe = subscribe.call(store, 'c19-warm', (reason) => {
    if (reason === 'signal') woken = true
  })
  try {
    const claimed = await store.claim('c19-warm', 'turn-warm', { leaseMs: 60_000 })
    if (claimed.status !== 'claimed') throw new Error('claim must succeed')
    const deadline = Date.now() + WAKE_WITHIN_MS
    while (!woken) {
      if (Date.now() > deadline) throw new Error(`S19: a committed signal woke no subscriber within ${WAKE_WITHIN_MS} ms`)
      await store.signal('c19-warm', { type: 'stop' })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    unsubscribe()
  }
}

export function describeWakeCases(env: WakeCaseEnv): void {
  env.check('S19', 'subscribe: a committed signal or stored batch wakes the conversation’s subscribers; nothing stored, another conversation or an unsubscribe wakes nobody', async () => {
    const store = env.store()
    const subscribe = store.subscribe
    if (subscribe === undefined) return // optional: a store without it is polled
    await whenListening(store, subscribe)
    const wakes = recorder(store, subscribe, 'c19')
    const gone = recorder(store, subscribe, 'c19')
    const other = recorder(store, subscribe, 'c19-other')
    gone.unsubscribe()
    expect(await store.signal('c19', { type: 'stop' })).toBe(false) // no turn holds it: nothing stored
    const claimed = await store.claim('c19', 'turn-1', { leaseMs: 60_000 })
    if (claimed.status !== 'claimed') throw new Error('claim must succeed')
    expect(await store.signal('c19', { type: 'stop' })).toBe(true)
    await wakes.until(1)
    if (typeof store.appendTurnParts === 'function') {
      expect((await store.appendTurnParts('c19', { lease: claimed.lease, seq: 0, parts: ['{"d":"0"}'] })).status).toBe('appended')
      await wakes.until(2)
      // a stale seq stores nothing
      expect((await store.appendTurnParts('c19', { lease: claimed.lease, seq: 0, parts: ['{"d":"0"}'] })).status).toBe('conflict')
    }
    await quiet()
    expect(wakes.reasons).toEqual(typeof store.appendTurnParts === 'function' ? ['signal', 'turn-parts'] : ['signal'])
    expect(gone.reasons).toEqual([])
    expect(other.reasons).toEqual([])
    wakes.unsubscribe()
    wakes.unsubscribe() // idempotent
    other.unsubscribe()
    expect(await store.signal('c19', { type: 'dialog-answer', payload: '{}' })).toBe(true)
    await quiet()
    expect(wakes.reasons).toHaveLength(typeof store.appendTurnParts === 'function' ? 2 : 1)
  })
}

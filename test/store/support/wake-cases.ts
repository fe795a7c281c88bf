import { expect, it } from 'vitest'
import type { ConversationStore, StoreWake } from '../../../src/store/index.js'

/**
 * `ConversationStore.subscribe`, as every chatrail store keeps it: `writer` and `reader` are two
 * store objects on one database (two instances), or the same object for the memory store. A wake
 * is counted, never read: it is a hint to read the store.
 */
export interface WakeStores {
  readonly writer: ConversationStore
  readonly reader: ConversationStore
}

/**
 * Counts a conversation's wakes. `count()` and `reached(n)` count the wakes for writes
 * (`signal`, `turn-parts`); `missed` (a listener that (re)started: it may have missed writes) comes
 * whenever a listener starts, so it is counted apart (`missed()`, `reachedMissed(n)`).
 */
export function wakesOf(store: ConversationStore, conversationId: string) {
  const reasons: StoreWake[] = []
  const waiters = new Set<() => void>()
  const subscribe = store.subscribe
  if (!subscribe) throw new Error(`${store.kind} has no subscribe`)
  const unsubscribe = subscribe(conversationId, (reason) => {
    reasons.push(reason)
    for (const waiter of waiters) waiter()
  })
  const count = (): number => reasons.filter((reason) => reason !== 'missed').length
  const missed = (): number => reasons.length - count()
  const until = (what: string, done: () => boolean, timeoutMs: number): Promise<void> => new Promise<void>((resolve, reject) => {
    const check = (): void => {
      if (!done()) return
      waiters.delete(check)
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(() => {
      waiters.delete(check)
      reject(new Error(`${what} of ${conversationId} not within ${timeoutMs} ms: ${JSON.stringify(reasons)}`))
    }, timeoutMs)
    waiters.add(check)
    check()
  })
  return {
    count,
    missed,
    /** The wakes for writes, in order. */
    written: (): StoreWake[] => reasons.filter((reason) => reason !== 'missed'),
    unsubscribe,
    reached: (n: number, timeoutMs = 5000): Promise<void> => until(`${n} wakes`, () => count() >= n, timeoutMs),
    reachedMissed: (n: number, timeoutMs = 5000): Promise<void> => until(`${n} missed wakes`, () => missed() >= n, timeoutMs),
  }
}

/** Lets pending notifications arrive: a wake that was going to come has come by then. */
export const settle = (ms = 150): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Waits until `wakes`' store listens: a SQL store's LISTEN starts after the first subscribe and wakes
 * every subscriber `missed` once in place (the memory store wakes in-process at once). A fixed wait
 * instead failed on a loaded CI machine: the first write came before the LISTEN, so its wake was
 * never sent.
 */
async function listening(store: ConversationStore, wakes: ReturnType<typeof wakesOf>): Promise<void> {
  if (store.kind !== 'memory') await wakes.reachedMissed(1, 15_000)
  await settle()
}

const part = (n: number): string => JSON.stringify({ type: 'text-delta', id: 't', delta: `p${n}` })

/** The cases every store's `subscribe` passes. `open` makes the two store objects; `close` ends them. */
export function wakeCases(open: () => Promise<WakeStores>, close: (stores: WakeStores) => Promise<void>): void {
  const withStores = (body: (stores: WakeStores) => Promise<void>) => async () => {
    const stores = await open()
    try {
      await body(stores)
    } finally {
      await close(stores)
    }
  }

  it('a stop signalled for a held lease wakes the conversation’s subscriber; a dialog answer does too', withStores(async ({ writer, reader }) => {
    const wakes = wakesOf(reader, 'c1')
    const other = wakesOf(reader, 'c2')
    // the first wake can be the listener starting (it wakes everyone once: it may have missed a write)
    await listening(reader, wakes)
    const before = wakes.count()
    const otherBefore = other.count()
    const claim = await writer.claim('c1', 't1', { leaseMs: 60_000 })
    expect(claim.status).toBe('claimed')
    expect(await writer.signal('c1', { type: 'stop' })).toBe(true)
    await wakes.reached(before + 1)
    expect(await writer.signal('c1', { type: 'dialog-answer', payload: '{"toolId":"x","answer":{}}' })).toBe(true)
    await wakes.reached(before + 2)
    await settle()
    // nothing was written for c2: c1's signals never wake it
    expect(other.count()).toBe(otherBefore)
    expect(wakes.written().slice(before)).toEqual(['signal', 'signal'])
    if (claim.status === 'claimed') expect(await reader.takeSignals(claim.lease)).toEqual({ stop: true, dialogAnswer: '{"toolId":"x","answer":{}}' })
    wakes.unsubscribe()
    other.unsubscribe()
  }))

  it('a signal that finds no turn to take it wakes nobody', withStores(async ({ writer, reader }) => {
    const wakes = wakesOf(reader, 'idle')
    await listening(reader, wakes)
    const before = wakes.count()
    expect(await writer.signal('idle', { type: 'stop' })).toBe(false)
    const claim = await writer.claim('idle', 't1', { leaseMs: 60_000, owner: 'ann' })
    expect(claim.status).toBe('claimed')
    // another principal's stop is refused: no wake either
    expect(await writer.signal('idle', { type: 'stop' }, { owner: 'bob' })).toBe(false)
    await settle()
    expect(wakes.count()).toBe(before)
    wakes.unsubscribe()
  }))

  it('every stored batch of a turn’s parts wakes its followers; a refused batch does not', withStores(async ({ writer, reader }) => {
    const wakes = wakesOf(reader, 'c3')
    await listening(reader, wakes)
    const before = wakes.count()
    const claim = await writer.claim('c3', 't1', { leaseMs: 60_000 })
    if (claim.status !== 'claimed') throw new Error('not claimed')
    const append = writer.appendTurnParts as NonNullable<ConversationStore['appendTurnParts']>
    expect((await append('c3', { lease: claim.lease, seq: 0, parts: [part(0), part(1)] })).status).toBe('appended')
    await wakes.reached(before + 1)
    expect((await append('c3', { lease: claim.lease, seq: 2, parts: [part(2)], finished: true })).status).toBe('appended')
    await wakes.reached(before + 2)
    // a stale seq (a retried flush) and a fenced token store nothing and wake nobody
    expect((await append('c3', { lease: claim.lease, seq: 1, parts: [part(1)] })).status).toBe('conflict')
    expect((await append('c3', { lease: { ...claim.lease, turnId: 'other', token: claim.lease.token + 5 }, seq: 0, parts: [part(0)] })).status).toBe('fenced')
    await settle()
    expect(wakes.count()).toBe(before + 2)
    // for the turn's followers, not its holder
    expect(wakes.written().slice(before)).toEqual(['turn-parts', 'turn-parts'])
    wakes.unsubscribe()
  }))

  it('an unsubscribed callback is not called again; other subscribers of the conversation still are', withStores(async ({ writer, reader }) => {
    const gone = wakesOf(reader, 'c4')
    const kept = wakesOf(reader, 'c4')
    await listening(reader, kept)
    gone.unsubscribe()
    gone.unsubscribe() // idempotent
    const [goneBefore, keptBefore] = [gone.count(), kept.count()]
    await writer.claim('c4', 't1', { leaseMs: 60_000 })
    expect(await writer.signal('c4', { type: 'stop' })).toBe(true)
    await kept.reached(keptBefore + 1)
    await settle()
    expect(gone.count()).toBe(goneBefore)
    kept.unsubscribe()
  }))
}

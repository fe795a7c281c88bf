import { expect } from 'vitest'
import { isChatrailConfigError } from '../../conversation/config-error.js'
import type { ConversationStore, DefinitionRef, Lease } from '../../store/conversation-store.js'
import { TURN_PARTS_RETENTION_MS, type TurnPartsAppend } from '../../store/turn-parts.js'

/**
 * The store contract's turn-parts cases (S15, S16; see store-contract.ts): a running turn's stream
 * parts, appended in batches under its lease and read from a sequence number by any instance.
 */

/** The `maxTurnPartsBytes` the suite hands a store. */
export const TURN_PARTS_CAP = 96

export interface TurnPartsCaseEnv {
  readonly store: () => ConversationStore
  readonly advance: (ms: number) => void
  readonly now: () => number
  readonly check: (invariant: 'S15' | 'S16', title: string, body: () => Promise<void>) => void
  readonly rejection: (promise: Promise<unknown>) => Promise<unknown>
  readonly definition: DefinitionRef
}

type TurnPartsStore = ConversationStore & Required<Pick<ConversationStore, 'appendTurnParts' | 'readTurnParts'>>

function withTurnParts(store: ConversationStore): TurnPartsStore {
  if (typeof store.appendTurnParts !== 'function' || typeof store.readTurnParts !== 'function') {
    throw new Error(`this ${store.kind} store has no appendTurnParts/readTurnParts: implement them, or skip S15 and S16 with the reason (describeStoreContract(…, { skip: { S15: '…', S16: '…' } })); the handler then answers every reconnect 204`)
  }
  return store as TurnPartsStore
}

async function claim(store: ConversationStore, conversationId: string, turnId: string, options: { leaseMs: number; owner?: string }): Promise<Lease> {
  const claimed = await store.claim(conversationId, turnId, options)
  if (claimed.status !== 'claimed') throw new Error(`claim of ${conversationId} must succeed`)
  return claimed.lease
}

export function describeTurnPartsCases(env: TurnPartsCaseEnv): void {
  const { check, rejection } = env
  const part = (n: number | string): string => JSON.stringify({ d: String(n) })

  check('S15', 'turn parts: created under the lease, compare-and-swap on seq, read from a seq, capped in UTF-8 bytes', async () => {
    const store = withTurnParts(env.store())
    const t0 = env.now()
    const append = (input: TurnPartsAppend) => store.appendTurnParts('p1', input)
    expect(await store.readTurnParts('p1')).toEqual({})
    // nobody holds the lease: nothing can be created
    expect(await append({ lease: { turnId: 't1', token: 1 }, seq: 0, parts: [part(0)] })).toEqual({ status: 'fenced' })
    const lease = await claim(store, 'p1', 't1', { leaseMs: 10_000, owner: 'alice' })
    expect(await append({ lease: { turnId: 't1', token: lease.token + 1 }, seq: 0, parts: [part(0)] })).toEqual({ status: 'fenced' })
    expect(await append({ lease: { turnId: 'other', token: lease.token }, seq: 0, parts: [part(0)] })).toEqual({ status: 'fenced' })
    expect(await store.readTurnParts('p1')).toEqual({ lease: { turnId: 't1', token: lease.token, held: true, owner: 'alice' } })
    expect(await append({ lease, seq: 0, parts: [part(0), part(1), part(2)], owner: 'alice', header: '{"user":"u1"}' })).toEqual({ status: 'appended', next: 3 })
    // a batch at another seq writes nothing
    expect(await append({ lease, seq: 1, parts: [part('x')] })).toEqual({ status: 'conflict', next: 3 })
    expect(await append({ lease, seq: 0, parts: [part('x')] })).toEqual({ status: 'conflict', next: 3 })
    env.advance(10)
    const unicode = JSON.stringify({ d: 'ü ✓ 😀 "q"' })
    expect(await append({ lease, seq: 3, parts: [unicode] })).toEqual({ status: 'appended', next: 4 })
    const all = [part(0), part(1), part(2), unicode]
    expect(await store.readTurnParts('p1')).toEqual({
      lease: { turnId: 't1', token: lease.token, held: true, owner: 'alice' },
      turn: { turnId: 't1', token: lease.token, owner: 'alice', parts: all, next: 4, finished: false, overflowed: false, updatedAt: new Date(t0 + 10) },
    })
    expect((await store.readTurnParts('p1', { from: 2 })).turn?.parts).toEqual(all.slice(2))
    expect((await store.readTurnParts('p1', { from: 1, turnId: 't1' })).turn?.parts).toEqual(all.slice(1))
    expect((await store.readTurnParts('p1', { from: 4 })).turn?.parts).toEqual([])
    expect((await store.readTurnParts('p1', { from: 9 })).turn?.parts).toEqual([])
    expect((await store.readTurnParts('p1', { parts: false })).turn).toMatchObject({ parts: [], next: 4 })
    expect((await store.readTurnParts('p1', { parts: false, header: true })).turn?.header).toBe('{"user":"u1"}')
    // released (the turn committed): its record still takes the last batch and the finished mark
    expect(await store.release(lease, 'completed')).toBe(true)
    expect(await append({ lease, seq: 4, parts: [part(4)], finished: true })).toEqual({ status: 'appended', next: 5 })
    expect(await store.readTurnParts('p1')).toMatchObject({ lease: { turnId: 't1', held: false }, turn: { finished: true, next: 5, parts: [...all, part(4)] } })
    // the next turn: a read names the lease's turn (no record yet); the old one is read by its id
    const next = await claim(store, 'p1', 't2', { leaseMs: 10_000, owner: 'alice' })
    expect(await store.readTurnParts('p1')).toEqual({ lease: { turnId: 't2', token: next.token, held: true, owner: 'alice' } })
    expect((await store.readTurnParts('p1', { turnId: 't1' })).turn?.next).toBe(5)
    // an old turn's record cannot be written under another token, and a later batch needs a record
    expect(await store.appendTurnParts('p1', { lease: { turnId: 't1', token: next.token }, seq: 5, parts: [part(5)] })).toEqual({ status: 'fenced' })
    expect(await store.appendTurnParts('p1', { lease: next, seq: 2, parts: [part(2)] })).toEqual({ status: 'gone' })
    // the cap counts UTF-8 bytes: 40 + 58 > 96 refuses the second batch whole (49 characters would fit) and marks the turn
    const wide = (n: number): string => 'ü'.repeat(n)
    expect(await store.appendTurnParts('p1', { lease: next, seq: 0, parts: [wide(20)] })).toEqual({ status: 'appended', next: 1 })
    expect(await store.appendTurnParts('p1', { lease: next, seq: 1, parts: [wide(29)] })).toEqual({ status: 'overflow', next: 1 })
    expect(await store.appendTurnParts('p1', { lease: next, seq: 1, parts: ['z'] })).toEqual({ status: 'overflow', next: 1 })
    expect(await store.appendTurnParts('p1', { lease: next, seq: 1, parts: [], finished: true })).toEqual({ status: 'appended', next: 1 })
    expect((await store.readTurnParts('p1')).turn).toMatchObject({ parts: [wide(20)], next: 1, overflowed: true, finished: true })
    // bad input is refused before anything is written
    for (const bad of [{ lease: next, seq: 1, parts: ['a\nb'] }, { lease: next, seq: -1, parts: [] }, { lease: next, seq: 1, parts: [''] }, { lease: { turnId: '', token: 1 }, seq: 0, parts: [] }]) {
      expect(isChatrailConfigError(await rejection(store.appendTurnParts('p1', bad)))).toBe(true)
    }
    expect(isChatrailConfigError(await rejection(store.appendTurnParts('bad id', { lease: next, seq: 0, parts: [] })))).toBe(true)
    expect(isChatrailConfigError(await rejection(store.readTurnParts('p1', { from: -1 })))).toBe(true)
  })

  check('S16', "turn parts are bounded: idle finished or abandoned turns are swept, a held one is kept; delete and expire take a conversation's", async () => {
    const store = withTurnParts(env.store())
    const leaseMs = 10 * TURN_PARTS_RETENTION_MS
    const done = await claim(store, 'q-done', 'turn-1', { leaseMs })
    await store.appendTurnParts('q-done', { lease: done, seq: 0, parts: [part(0)], finished: true })
    const held = await claim(store, 'q-held', 'turn-1', { leaseMs })
    await store.appendTurnParts('q-held', { lease: held, seq: 0, parts: [part(0)] })
    const lost = await claim(store, 'q-lost', 'turn-1', { leaseMs: 1000 })
    await store.appendTurnParts('q-lost', { lease: lost, seq: 0, parts: [part(0)] })
    env.advance(TURN_PARTS_RETENTION_MS - 1)
    // within the retention nothing goes
    const early = await claim(store, 'q-early', 'turn-1', { leaseMs })
    await store.appendTurnParts('q-early', { lease: early, seq: 0, parts: [part(0)] })
    expect((await store.readTurnParts('q-done')).turn?.finished).toBe(true)
    expect((await store.readTurnParts('q-lost')).turn).toBeDefined()
    env.advance(2)
    // a turn's first batch sweeps the idle records: finished (q-done) and abandoned (q-lost, its lease expired); a held one stays however idle
    const sweeper = await claim(store, 'q-sweep', 'turn-1', { leaseMs })
    expect(await store.appendTurnParts('q-sweep', { lease: sweeper, seq: 0, parts: [part(0)] })).toEqual({ status: 'appended', next: 1 })
    expect((await store.readTurnParts('q-done')).turn).toBeUndefined()
    expect((await store.readTurnParts('q-lost')).turn).toBeUndefined()
    expect((await store.readTurnParts('q-held')).turn?.parts).toEqual([part(0)])
    expect((await store.readTurnParts('q-early')).turn?.parts).toEqual([part(0)])
    // delete takes the lease and the records, stored conversation or not
    await store.delete('q-held')
    expect(await store.readTurnParts('q-held')).toEqual({})
    // expire takes an expired conversation's records with it
    const turnLease = await claim(store, 'q-expire', 'turn-1', { leaseMs: 1000 })
    await store.append('q-expire', { expectedVersion: 0, messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date(env.now()) }], definition: env.definition, lease: turnLease, release: 'completed' })
    await store.appendTurnParts('q-expire', { lease: turnLease, seq: 0, parts: [part(0)], finished: true })
    env.advance(1000)
    expect(await store.expire({ idleMs: 500 })).toBe(1)
    expect(await store.readTurnParts('q-expire')).toEqual({})
  })
}

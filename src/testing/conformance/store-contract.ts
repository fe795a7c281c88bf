import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ChatrailError } from '../../contract/errors.js'
import type { Message } from '../../contract/message.js'
import { isChatrailConfigError } from '../../conversation/config-error.js'
import type { ConversationStore, DefinitionRef, StoreOptions } from '../../store/conversation-store.js'
import { isDefinitionMismatchError, isOwnerMismatchError, isStoreConflictError, isStoreLeaseError, isStoreUnavailableError, type StoreConflictError, type StoreLeaseError } from '../../store/store-errors.js'
import { describeTurnPartsCases, TURN_PARTS_CAP } from './store-contract-turn-parts.js'
import { describeRangeCases } from './store-contract-ranges.js'
import { describeWakeCases } from './store-contract-wakes.js'
import { describeDecisionCases } from './store-contract-decisions.js'

/**
 * The `ConversationStore` conformance suite, in the style of Hono's `common.case.test.ts`: every
 * store runs it (chatrail's memory, PGlite and Postgres stores, and a third party's Redis or
 * DynamoDB store), and anything a store cannot honour is skipped with a written reason.
 *
 * - S1 absent → undefined; a create at version 0 reads back equal (Dates, metadata, order, definition, clock times);
 * - S2 appends are compare-and-swap on `version`; a stale write is `StoreConflictError` with the current version and writes nothing;
 * - S3 truncate-after-id + append (edit/regenerate), `null` truncates everything, an unknown id is a conflict;
 * - S4 appending a stored first message id is a no-op that returns the stored outcome (even at a stale version);
 * - S5 leases: busy while held; an expired lease is taken over with a larger token; the stale token cannot write, renew or release;
 * - S6 a write without a lease is refused while one is held; append + release in one write frees it;
 * - S7 a conversation keeps its definition id (mismatch is a typed error) and takes the newest revision;
 * - S8 delete, list (by definition, updated-before, paginated), expire idle conversations (never one under lease);
 * - S9 bad input: non-identifier ids are config errors; an oversized or malformed message is refused before anything is written;
 * - S10 concurrent writers at one version: exactly one wins, the others conflict, nothing is lost or duplicated;
 * - S11 a closed store refuses every operation with `StoreUnavailableError` (and closing twice is fine);
 * - S12 the creating write's `owner` is kept (load, list, list by owner); another owner's write, even a retry of a stored message, is `OwnerMismatchError`;
 * - S13 signals: `stop` and a dialog answer reach the current lease holder's `takeSignals` (the answer once); no holder (or another owner's turn) → false; a new claim starts clean; a lease no longer current reads as stop.
 * - S14 a claim reports the conversation as it stood when the lease was taken (`current`: version, revision, updatedAt; version 0 when none is stored), including the write of a holder that committed and released while the claim waited. A store whose claim does not report `current` skips S14 (the handler then loads under the lease).
 * - S15 turn parts (`appendTurnParts`, `readTurnParts`): a record is created only under the turn's current lease and still takes its last batch after the release; batches are compare-and-swap on `seq`; a read returns the parts from a seq, the record and the lease; the per-turn cap counts UTF-8 bytes, refuses the overflowing batch whole and marks the turn.
 * - S16 turn parts stay bounded: a turn's first batch sweeps records idle past the retention that are finished or hold no lease (never a held one); `delete` and `expire` take a conversation's records. A store without turn parts skips S15 and S16 (its streams are not resumable).
 * - S17 `list({ order: 'newest' })`: newest `updatedAt` first, ties by id descending; the cursor pages in that order, with the same filters; a write moves a conversation to the front, a deletion takes it out.
 * - S18 `load(id, { lastMessages, beforeMessage })`: that range of the log, oldest first, and `range` (where it sits, the log's length); `lastMessages: 0` is the header alone; a `beforeMessage` no longer stored is `unknown_message`.
 * - S19 `subscribe` (optional; a store without it passes): a committed `signal` wakes the conversation's subscribers with `'signal'`, a stored batch of turn parts with `'turn-parts'`; a signal nobody holds, a refused batch, another conversation's write or an unsubscribed callback wakes nobody (`'missed'` may come any time).
 * - S20 `loadDecisions` (optional; a store without it passes): whole logs of up to 100 conversations in one read, each message as `decisionViewOf` keeps it (no answer's text, parts or tool calls; everything a walk of the decisions reads kept exactly), in the order asked, as the logs are after an edit; bad ids are config errors.
 */

export type StoreInvariant = 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'S7' | 'S8' | 'S9' | 'S10' | 'S11' | 'S12' | 'S13' | 'S14' | 'S15' | 'S16' | 'S17' | 'S18' | 'S19' | 'S20'

/** What the suite hands `makeStore`: a clock it controls, and the caps S9 and S15 test. */
export type StoreContractOptions = Required<Pick<StoreOptions, 'clock' | 'maxMessageBytes' | 'maxTurnPartsBytes'>>

export interface StoreContractConfig {
  /** Invariants this store cannot honour, each with the reason. */
  skip?: Partial<Record<StoreInvariant, string>>
  /** Per-test timeout (ms); SQL stores on a busy machine want more than vitest's 5 s. Default 30 000. */
  timeout?: number
}

const DEF: DefinitionRef = { id: 'contract-def', revision: 1 }
const T0 = Date.UTC(2030, 0, 1)
const CAP = 4096

/**
 * Runs the conformance suite against stores from `makeStore`, called once per test. Each call must
 * return an empty store (list() sees only what that test wrote) that reads time from `options.clock`.
 */
export function describeStoreContract(
  name: string,
  makeStore: (options: StoreContractOptions) => ConversationStore | Promise<ConversationStore>,
  config: StoreContractConfig = {},
): void {
  describe(`ConversationStore contract: ${name}`, () => {
    let now = T0
    let store: ConversationStore
    let seq = 0
    const msg = (role: Message['role'], content: string, id = `m${++seq}`, extra: Partial<Message> = {}): Message => ({
      id, role, content, status: 'complete', createdAt: new Date(T0 + seq * 1000), ...extra,
    })
    const turn = (text: string): Message[] => [msg('user', text), msg('assistant', `re: ${text}`, undefined, { metadata: { chatrail: { v: 1, note: 'ü ✓ "q"' } } })]
    const timeout = config.timeout ?? 30_000

    beforeEach(async () => {
      now = T0
      seq = 0
      store = await makeStore({ clock: () => now, maxMessageBytes: CAP, maxTurnPartsBytes: TURN_PARTS_CAP })
    }, timeout)
    afterEach(async () => {
      await store.close()
    }, timeout)

    const check = (invariant: StoreInvariant, title: string, body: () => Promise<void>): void => {
      const reason = config.skip?.[invariant]
      if (reason !== undefined) it.skip(`${invariant} ${title} — skipped: ${reason}`, body)
      else it(`${invariant} ${title}`, body, timeout)
    }
    const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
      try {
        await promise
      } catch (error) {
        return error
      }
      throw new Error('expected the store to refuse this, but it succeeded')
    }

    check('S1', 'an absent conversation loads as undefined; a created one reads back equal', async () => {
      expect(await store.load('c1')).toBeUndefined()
      const messages = turn('hello')
      expect(await store.append('c1', { expectedVersion: 0, messages, definition: DEF })).toEqual({ status: 'appended', version: 1 })
      const loaded = await store.load('c1')
      expect(loaded).toEqual({ conversationId: 'c1', messages, version: 1, definition: DEF, createdAt: new Date(T0), updatedAt: new Date(T0) })
      expect(loaded?.messages[0]?.createdAt).toBeInstanceOf(Date)
      expect(JSON.stringify(loaded?.messages)).toBe(JSON.stringify(messages))
    })

    check('S2', 'appends are compare-and-swap on version; a stale write conflicts and writes nothing', async () => {
      const first = turn('one')
      await store.append('c2', { expectedVersion: 0, messages: first, definition: DEF })
      now += 5000
      const second = turn('two')
      expect(await store.append('c2', { expectedVersion: 1, messages: second, definition: DEF })).toEqual({ status: 'appended', version: 2 })
      const error = (await rejection(store.append('c2', { expectedVersion: 1, messages: turn('three'), definition: DEF }))) as StoreConflictError
      expect(isStoreConflictError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'STORE_CONFLICT', conversationId: 'c2', expectedVersion: 1, currentVersion: 2 })
      expect(isStoreConflictError(await rejection(store.append('c2', { expectedVersion: 0, messages: turn('again'), definition: DEF })))).toBe(true)
      expect(isStoreConflictError(await rejection(store.append('absent', { expectedVersion: 3, messages: turn('x'), definition: DEF })))).toBe(true)
      const loaded = await store.load('c2')
      expect(loaded?.messages).toEqual([...first, ...second])
      expect(loaded?.version).toBe(2)
      expect(loaded?.updatedAt).toEqual(new Date(T0 + 5000))
      expect(loaded?.createdAt).toEqual(new Date(T0))
      expect(await store.load('absent')).toBeUndefined()
    })

    check('S3', 'truncate after a message id, then append, under the same CAS', async () => {
      const [u1, a1] = turn('one')
      const [u2, a2] = turn('two')
      await store.append('c3', { expectedVersion: 0, messages: [u1!, a1!, u2!, a2!], definition: DEF })
      const regenerated = msg('assistant', 'another answer')
      expect(await store.append('c3', { expectedVersion: 1, truncateAfter: u2!.id, messages: [regenerated], definition: DEF })).toEqual({ status: 'appended', version: 2 })
      expect((await store.load('c3'))?.messages).toEqual([u1, a1, u2, regenerated])
      // An edit that keeps the message id: truncate before it, append the new text under the same id.
      const edited = { ...u2!, content: 'two, edited' }
      await store.append('c3', { expectedVersion: 2, truncateAfter: a1!.id, messages: [edited], definition: DEF })
      expect((await store.load('c3'))?.messages).toEqual([u1, a1, edited])
      expect(isStoreConflictError(await rejection(store.append('c3', { expectedVersion: 3, truncateAfter: 'not-there', messages: [msg('user', 'x')], definition: DEF })))).toBe(true)
      expect(isStoreConflictError(await rejection(store.append('c3', { expectedVersion: 2, truncateAfter: u1!.id, messages: [], definition: DEF })))).toBe(true)
      await store.append('c3', { expectedVersion: 3, truncateAfter: null, messages: [], definition: DEF })
      const cleared = await store.load('c3')
      expect(cleared?.messages).toEqual([])
      expect(cleared?.version).toBe(4)
    })

    check('S4', 'appending an already stored user message id is a no-op returning the stored outcome', async () => {
      const first = turn('one')
      await store.append('c4', { expectedVersion: 0, messages: first, definition: DEF })
      const second = turn('two')
      await store.append('c4', { expectedVersion: 1, messages: second, definition: DEF })
      // A network retry of turn two (the client never saw version 2): same message ids, stale version.
      const retried = await store.append('c4', { expectedVersion: 1, messages: [second[0]!, msg('assistant', 'a second answer')], definition: DEF })
      expect(retried).toEqual({ status: 'duplicate', version: 2, messages: second })
      const loaded = await store.load('c4')
      expect(loaded?.messages).toEqual([...first, ...second])
      expect(loaded?.version).toBe(2)
      // A later message of a write that is already stored (not the first) is a conflict, never a second copy.
      expect(isStoreConflictError(await rejection(store.append('c4', { expectedVersion: 2, messages: [msg('user', 'new'), second[1]!], definition: DEF })))).toBe(true)
      expect((await store.load('c4'))?.messages).toHaveLength(4)
    })

    check('S5', 'leases: busy while held, taken over after expiry with a larger token; the stale token is fenced', async () => {
      const claimed = await store.claim('c5', 'turn-a', { leaseMs: 1000 })
      if (claimed.status !== 'claimed') throw new Error('first claim must succeed')
      expect(claimed.lease).toMatchObject({ conversationId: 'c5', turnId: 'turn-a', expiresAt: new Date(T0 + 1000) })
      expect(await store.claim('c5', 'turn-b', { leaseMs: 1000 })).toEqual({ status: 'busy', turnId: 'turn-a', expiresAt: new Date(T0 + 1000) })
      now += 500
      const renewed = await store.renew(claimed.lease, { leaseMs: 1000 })
      expect(renewed.expiresAt).toEqual(new Date(T0 + 1500))
      now += 999
      expect((await store.claim('c5', 'turn-b', { leaseMs: 1000 })).status).toBe('busy')
      now += 1 // at expiresAt the lease has expired
      const taken = await store.claim('c5', 'turn-b', { leaseMs: 1000 })
      if (taken.status !== 'claimed') throw new Error('an expired lease must be taken over')
      expect(taken.lease.token).toBeGreaterThan(claimed.lease.token)
      // The first holder wakes up and tries to commit: refused, and nothing was written.
      const stale = (await rejection(store.append('c5', { expectedVersion: 0, messages: turn('late'), definition: DEF, lease: claimed.lease }))) as StoreLeaseError
      expect(isStoreLeaseError(stale)).toBe(true)
      expect(stale).toMatchObject({ code: 'STORE_LEASE_FENCED', reason: 'fenced', token: claimed.lease.token, currentToken: taken.lease.token })
      expect(await store.load('c5')).toBeUndefined()
      expect(isStoreLeaseError(await rejection(store.renew(claimed.lease, { leaseMs: 1000 })))).toBe(true)
      expect(await store.release(claimed.lease, 'abandoned')).toBe(false)
      // The successor commits.
      const mine = turn('mine')
      expect(await store.append('c5', { expectedVersion: 0, messages: mine, definition: DEF, lease: taken.lease })).toEqual({ status: 'appended', version: 1 })
      expect(await store.release(taken.lease, 'completed')).toBe(true)
      expect(await store.release(taken.lease, 'completed')).toBe(false)
      // Released: the next claim is immediate, with a larger token again.
      const next = await store.claim('c5', 'turn-c', { leaseMs: 1000 })
      expect(next.status === 'claimed' && next.lease.token > taken.lease.token).toBe(true)
      expect((await store.load('c5'))?.messages).toEqual(mine)
    })

    check('S6', 'a write without the lease is refused while it is held; append + release frees it in one write', async () => {
      await store.append('c6', { expectedVersion: 0, messages: turn('one'), definition: DEF })
      const claimed = await store.claim('c6', 'turn-1', { leaseMs: 10_000 })
      if (claimed.status !== 'claimed') throw new Error('claim must succeed')
      const busy = (await rejection(store.append('c6', { expectedVersion: 1, messages: turn('intruder'), definition: DEF }))) as StoreLeaseError
      expect(busy).toMatchObject({ code: 'STORE_LEASE_BUSY', reason: 'busy' })
      expect(await store.append('c6', { expectedVersion: 1, messages: turn('two'), definition: DEF, lease: claimed.lease, release: 'completed' })).toEqual({ status: 'appended', version: 2 })
      expect((await store.claim('c6', 'turn-2', { leaseMs: 10_000 })).status).toBe('claimed')
      // A lease past its expiry that nobody took over still commits (its token is current).
      const held = await store.claim('c6-b', 'turn-1', { leaseMs: 10 })
      if (held.status !== 'claimed') throw new Error('claim must succeed')
      now += 1_000_000
      expect((await store.append('c6-b', { expectedVersion: 0, messages: turn('slow'), definition: DEF, lease: held.lease })).status).toBe('appended')
      expect((await store.load('c6'))?.messages).toHaveLength(4)
    })

    check('S7', 'a conversation keeps its definition id and takes the newest revision', async () => {
      await store.append('c7', { expectedVersion: 0, messages: turn('one'), definition: DEF })
      const error = await rejection(store.append('c7', { expectedVersion: 1, messages: turn('two'), definition: { id: 'other-def', revision: 1 } }))
      expect(isDefinitionMismatchError(error)).toBe(true)
      expect(error).toMatchObject({ code: 'STORE_DEFINITION_MISMATCH', storedDefinitionId: DEF.id, definitionId: 'other-def' })
      await store.append('c7', { expectedVersion: 1, messages: turn('two'), definition: { id: DEF.id, revision: 2 } })
      expect((await store.load('c7'))?.definition).toEqual({ id: DEF.id, revision: 2 })
    })

    check('S8', 'delete, list by definition / updated-before with pagination, expire idle conversations', async () => {
      for (let i = 0; i < 5; i++) {
        now = T0 + i * 1000
        await store.append(`l${i}`, { expectedVersion: 0, messages: turn(`n${i}`), definition: i % 2 === 0 ? DEF : { id: 'other-def', revision: 3 } })
      }
      const first = await store.list({ limit: 2 })
      expect(first.conversations.map((c) => c.conversationId)).toEqual(['l0', 'l1'])
      expect(first.conversations[1]).toEqual({ conversationId: 'l1', version: 1, definition: { id: 'other-def', revision: 3 }, messageCount: 2, createdAt: new Date(T0 + 1000), updatedAt: new Date(T0 + 1000) })
      const second = await store.list({ limit: 2, cursor: first.nextCursor })
      expect(second.conversations.map((c) => c.conversationId)).toEqual(['l2', 'l3'])
      const third = await store.list({ limit: 2, cursor: second.nextCursor })
      expect(third.conversations.map((c) => c.conversationId)).toEqual(['l4'])
      expect(third.nextCursor).toBeUndefined()
      expect((await store.list({ definitionId: DEF.id })).conversations.map((c) => c.conversationId)).toEqual(['l0', 'l2', 'l4'])
      expect((await store.list({ updatedBefore: new Date(T0 + 2000) })).conversations.map((c) => c.conversationId)).toEqual(['l0', 'l1'])
      expect(await store.delete('l1')).toBe(true)
      expect(await store.delete('l1')).toBe(false)
      expect(await store.load('l1')).toBeUndefined()
      // l0 is under an unexpired lease: idle or not, it stays.
      now = T0 + 10_000
      await store.claim('l0', 'turn-x', { leaseMs: 60_000 })
      expect(await store.expire({ idleMs: 6500 })).toBe(2) // idle since before +3.5 s: l2 (+2 s) and l3 (+3 s); l4 (+4 s) is younger
      expect((await store.list()).conversations.map((c) => c.conversationId)).toEqual(['l0', 'l4'])
      expect(await store.load('l2')).toBeUndefined()
    })

    check('S9', 'bad input is refused with a clear error before anything is written', async () => {
      for (const bad of ['', 'has space', '../etc', 'x'.repeat(200), 42]) {
        const error = await rejection(store.load(bad as string))
        expect(isChatrailConfigError(error)).toBe(true)
        expect(String((error as Error).message)).toContain('conversation id')
      }
      expect(isChatrailConfigError(await rejection(store.append('bad id', { expectedVersion: 0, messages: turn('x'), definition: DEF })))).toBe(true)
      const big = msg('user', 'x'.repeat(CAP))
      const tooLarge = await rejection(store.append('c9', { expectedVersion: 0, messages: [msg('user', 'fine'), big], definition: DEF }))
      expect(ChatrailError.isInstance(tooLarge) && tooLarge.code).toBe('STORE_MESSAGE_TOO_LARGE')
      expect((tooLarge as Error).message).toContain(big.id)
      const malformed = await rejection(store.append('c9', { expectedVersion: 0, messages: [{ ...msg('user', 'x'), createdAt: 'yesterday' } as unknown as Message], definition: DEF }))
      expect(ChatrailError.isInstance(malformed) && malformed.code).toBe('STORE_INVALID_MESSAGE')
      expect((malformed as Error).message).toContain('messages[0]')
      expect(isChatrailConfigError(await rejection(store.claim('c9', 't', { leaseMs: -1 })))).toBe(true)
      expect(await store.load('c9')).toBeUndefined()
    })

    check('S10', 'concurrent writers at one version: exactly one wins, nothing lost or duplicated', async () => {
      await store.append('c10', { expectedVersion: 0, messages: turn('base'), definition: DEF })
      const writes = Array.from({ length: 6 }, (_, i) => store.append('c10', { expectedVersion: 1, messages: [msg('user', `w${i}`), msg('assistant', `a${i}`)], definition: DEF }))
      const results = await Promise.allSettled(writes)
      const won = results.filter((r) => r.status === 'fulfilled')
      expect(won).toHaveLength(1)
      for (const r of results) if (r.status === 'rejected') expect(isStoreConflictError(r.reason)).toBe(true)
      const loaded = await store.load('c10')
      expect(loaded?.version).toBe(2)
      expect(loaded?.messages).toHaveLength(4)
      expect(new Set(loaded?.messages.map((m) => m.id)).size).toBe(4)
    })

    check('S11', 'a closed store refuses every operation with StoreUnavailableError', async () => {
      await store.append('c11', { expectedVersion: 0, messages: turn('one'), definition: DEF })
      await store.close()
      for (const operation of [store.load('c11'), store.append('c11', { expectedVersion: 1, messages: turn('two'), definition: DEF }), store.claim('c11', 't', { leaseMs: 10 }), store.list(), store.delete('c11'), store.expire({ idleMs: 0 })]) {
        const error = await rejection(operation)
        expect(isStoreUnavailableError(error), String(error)).toBe(true)
      }
    })

    check('S12', 'the creating write sets the owner; another owner cannot write, even a retry of a stored message', async () => {
      const first = turn('mine')
      await store.append('c12', { expectedVersion: 0, messages: first, definition: DEF, owner: 'alice@example.com' })
      await store.append('c12-none', { expectedVersion: 0, messages: turn('nobody'), definition: DEF })
      expect((await store.load('c12'))?.owner).toBe('alice@example.com')
      expect((await store.load('c12-none'))?.owner).toBeUndefined()
      const theirs = await rejection(store.append('c12', { expectedVersion: 1, messages: turn('theirs'), definition: DEF, owner: 'bob' }))
      expect(isOwnerMismatchError(theirs)).toBe(true)
      expect(theirs).toMatchObject({ code: 'STORE_OWNER_MISMATCH', conversationId: 'c12' })
      expect(String((theirs as Error).message)).not.toContain('alice')
      // a "retry" of alice's stored message by bob must not hand bob her stored outcome
      expect(isOwnerMismatchError(await rejection(store.append('c12', { expectedVersion: 1, messages: first, definition: DEF, owner: 'bob' })))).toBe(true)
      // the owner never changes: the owner's writes (and writes that name no owner) go on
      expect((await store.append('c12', { expectedVersion: 1, messages: turn('again'), definition: DEF, owner: 'alice@example.com' })).status).toBe('appended')
      expect((await store.append('c12', { expectedVersion: 2, messages: turn('host'), definition: DEF })).status).toBe('appended')
      expect((await store.load('c12'))?.messages).toHaveLength(6)
      expect((await store.load('c12'))?.owner).toBe('alice@example.com')
      const listed = await store.list()
      expect(listed.conversations.find((c) => c.conversationId === 'c12')?.owner).toBe('alice@example.com')
      expect((await store.list({ owner: 'alice@example.com' })).conversations.map((c) => c.conversationId)).toEqual(['c12'])
      expect((await store.list({ owner: 'bob' })).conversations).toEqual([])
    })

    check('S13', 'signals reach the current lease holder: stop, a dialog answer once, nothing without a holder', async () => {
      expect(await store.signal('c13', { type: 'stop' })).toBe(false)
      const claimed = await store.claim('c13', 'turn-1', { leaseMs: 1000 })
      if (claimed.status !== 'claimed') throw new Error('claim must succeed')
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: false })
      expect(await store.signal('c13', { type: 'dialog-answer', payload: '{"toolId":"t1","answer":{"behavior":"allow"}}' })).toBe(true)
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: false, dialogAnswer: '{"toolId":"t1","answer":{"behavior":"allow"}}' })
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: false })
      expect(await store.signal('c13', { type: 'stop' })).toBe(true)
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: true })
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: true })
      expect(await store.release(claimed.lease, 'abandoned')).toBe(true)
      // released: nobody to signal, and the old lease reads as stopped
      expect(await store.signal('c13', { type: 'stop' })).toBe(false)
      expect(await store.takeSignals(claimed.lease)).toEqual({ stop: true })
      // a new turn starts without the old turn's signals
      const next = await store.claim('c13', 'turn-2', { leaseMs: 1000 })
      if (next.status !== 'claimed') throw new Error('claim must succeed')
      expect(await store.takeSignals(next.lease)).toEqual({ stop: false })
      // a turn claimed by an owner takes only that owner's signals
      const owned = await store.claim('c13-owned', 'turn-1', { leaseMs: 1000, owner: 'alice' })
      if (owned.status !== 'claimed') throw new Error('claim must succeed')
      expect(await store.signal('c13-owned', { type: 'stop' }, { owner: 'bob' })).toBe(false)
      expect(await store.takeSignals(owned.lease)).toEqual({ stop: false })
      expect(await store.signal('c13-owned', { type: 'stop' }, { owner: 'alice' })).toBe(true)
      expect(await store.takeSignals(owned.lease)).toEqual({ stop: true })
      // an expired lease takes no signals
      now += 1000
      expect(await store.signal('c13', { type: 'stop' })).toBe(false)
      const invalid = await rejection(store.signal('c13', { type: 'pause' } as never))
      expect(isChatrailConfigError(invalid)).toBe(true)
    })

    check('S14', "a claim reports the conversation's version as it stood when the lease was taken", async () => {
      const first = await store.claim('c14', 'turn-1', { leaseMs: 1000 })
      if (first.status !== 'claimed') throw new Error('claim must succeed')
      expect(first.current).toEqual({ version: 0 })
      now += 10
      await store.append('c14', { expectedVersion: 0, messages: turn('one'), definition: DEF, lease: first.lease, release: 'completed' })
      // another writer appends between someone's read (version 1) and their claim
      now += 10
      await store.append('c14', { expectedVersion: 1, messages: turn('two'), definition: { id: DEF.id, revision: 2 } })
      const second = await store.claim('c14', 'turn-2', { leaseMs: 1000 })
      if (second.status !== 'claimed') throw new Error('claim must succeed')
      expect(second.current).toEqual({ version: 2, revision: 2, updatedAt: new Date(T0 + 20) })
      // The holder commits and releases while the next claim is under way: a claim that succeeds
      // came after that release, so it must report the version the holder's write produced.
      // (The claim starts 0–2 ms after the write, so that against a database it sometimes arrives
      // while the write holds the lease row and waits for its commit.)
      let held = second.lease
      for (let version = 2; version < 32; version++) {
        const committing = store.append('c14', { expectedVersion: version, messages: turn(`t${version}`), definition: DEF, lease: held, release: 'completed' })
        await new Promise((resolve) => setTimeout(resolve, version % 3))
        let next = await store.claim('c14', `turn-${version + 1}`, { leaseMs: 1000 })
        await committing
        while (next.status === 'busy') next = await store.claim('c14', `turn-${version + 1}`, { leaseMs: 1000 })
        expect(next.current?.version).toBe(version + 1)
        held = next.lease
      }
    })

    describeTurnPartsCases({ store: () => store, advance: (ms) => void (now += ms), now: () => now, check, rejection, definition: DEF })
    describeRangeCases({ store: () => store, at: (ms) => void (now = T0 + ms), date: (ms) => new Date(T0 + ms), check, rejection, turn, definition: DEF })
    describeWakeCases({ store: () => store, check })
    describeDecisionCases({ store: () => store, check, definition: DEF, rejection })
  })
}

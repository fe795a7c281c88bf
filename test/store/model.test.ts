import type { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { isStoreConflictError, isStoreLeaseError, memoryStore, pgliteStore, postgresStore, type ConversationStore, type Lease } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'

// ARCHITECTURE invariant 8, as a model test: rounds of concurrent appends, truncations, lease
// claims and retried appends from several writers, each working from its own (possibly stale)
// view. Whatever interleaving the store picks, the successful writes have consecutive versions,
// and replaying them in version order on a plain array (the sequential model) gives exactly the
// stored log: nothing lost, nothing duplicated, no write of a fenced or stale writer.

type Op =
  | { kind: 'append'; writer: number }
  | { kind: 'truncate'; writer: number; keep: number }
  | { kind: 'retry'; writer: number }
  | { kind: 'leased'; writer: number; leaseMs: number }
  | { kind: 'tick'; ms: number }

const DEF = { id: 'model', revision: 1 }
const WRITERS = 3
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), writer: fc.nat(WRITERS - 1) }),
  fc.record({ kind: fc.constant('truncate' as const), writer: fc.nat(WRITERS - 1), keep: fc.nat(6) }),
  fc.record({ kind: fc.constant('retry' as const), writer: fc.nat(WRITERS - 1) }),
  fc.record({ kind: fc.constant('leased' as const), writer: fc.nat(WRITERS - 1), leaseMs: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 30 }) }),
)
const roundsArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 })

interface View {
  version: number
  ids: string[]
  lastTurn?: { expectedVersion: number; messages: Message[] }
  lease?: Lease
}

async function runModel(store: ConversationStore, rounds: Op[][], clock: { now: number }): Promise<void> {
  const id = 'conv'
  let model: string[] = []
  let modelVersion = 0
  let n = 0
  const message = (role: Message['role']): Message => ({ id: `m${++n}`, role, content: `c${n}`, status: 'complete', createdAt: new Date(0) })
  const views: View[] = Array.from({ length: WRITERS }, () => ({ version: 0, ids: [] }))

  for (const round of rounds) {
    type Applied = { version: number; expectedVersion: number; truncateAfter?: string | null; ids: string[] }
    const applied: Applied[] = []
    const duplicates: { firstId: string; storedIds: string[] }[] = []
    await Promise.all(
      round.map(async (op) => {
        if (op.kind === 'tick') {
          clock.now += op.ms
          return
        }
        const view = views[op.writer] as View
        try {
          if (op.kind === 'retry') {
            const last = view.lastTurn // read before awaiting: the same writer's other op may replace it meanwhile
            if (!last) return
            const result = await store.append(id, { ...last, definition: DEF })
            if (result.status === 'duplicate') duplicates.push({ firstId: last.messages[0]!.id, storedIds: result.messages.map((m) => m.id) })
            else applied.push({ version: result.version, expectedVersion: last.expectedVersion, ids: last.messages.map((m) => m.id) })
            return
          }
          let lease: Lease | undefined
          if (op.kind === 'leased') {
            const claimed = await store.claim(id, `turn-${op.writer}-${n}`, { leaseMs: op.leaseMs })
            if (claimed.status !== 'claimed') return
            lease = claimed.lease
            view.lease = lease
          }
          const messages = [message('user'), message('assistant')]
          const truncateAfter = op.kind === 'truncate' ? (op.keep === 0 || view.ids.length === 0 ? null : view.ids[Math.min(op.keep, view.ids.length) - 1]!) : undefined
          const expectedVersion = view.version
          // A stale holder from an earlier round also tries its old lease now and then.
          const useLease = lease ?? (op.kind === 'truncate' ? view.lease : undefined)
          const result = await store.append(id, { expectedVersion, messages, definition: DEF, ...(truncateAfter !== undefined ? { truncateAfter } : {}), ...(useLease ? { lease: useLease, release: 'completed' as const } : {}) })
          if (result.status !== 'appended') throw new Error('fresh ids can never be duplicates')
          applied.push({ version: result.version, expectedVersion, ids: messages.map((m) => m.id), ...(truncateAfter !== undefined ? { truncateAfter } : {}) })
          view.lastTurn = { expectedVersion, messages }
        } catch (error) {
          if (!isStoreConflictError(error) && !isStoreLeaseError(error)) throw error
        }
      }),
    )
    // The successful writes form one serial history: consecutive versions after the last one.
    applied.sort((a, b) => a.version - b.version)
    expect(applied.map((a) => a.version)).toEqual(applied.map((_, i) => modelVersion + i + 1))
    // Compare-and-swap: a write lands only on the version its writer saw.
    for (const write of applied) expect(write.version).toBe(write.expectedVersion + 1)
    // Every state the log passed through this round: a duplicate answered from one of them.
    const states = [[...model]]
    for (const write of applied) {
      if (write.truncateAfter === null) model = []
      else if (write.truncateAfter !== undefined) model = model.slice(0, model.indexOf(write.truncateAfter) + 1)
      model.push(...write.ids)
      modelVersion = write.version
      states.push([...model])
    }
    const stored = await store.load(id)
    expect(stored?.version ?? 0).toBe(modelVersion)
    expect(stored?.messages.map((m) => m.id) ?? []).toEqual(model)
    expect(new Set(model).size).toBe(model.length)
    for (const { firstId, storedIds } of duplicates) {
      expect(states.some((state) => state.includes(firstId) && JSON.stringify(state.slice(state.indexOf(firstId))) === JSON.stringify(storedIds))).toBe(true)
    }
    // Writers that lost refresh their view; others keep a stale one, to keep conflicts coming.
    for (const [i, view] of views.entries()) {
      if (i % 2 === 0 || view.version !== modelVersion) {
        view.version = modelVersion
        view.ids = [...model]
      }
    }
  }
}

describe('store model test (fast-check): any interleaving is a serial history', () => {
  it('memoryStore', async () => {
    await fc.assert(
      fc.asyncProperty(roundsArb, async (rounds) => {
        const clock = { now: 0 }
        await runModel(memoryStore({ clock: () => clock.now }), rounds, clock)
      }),
      { numRuns: 150 },
    )
  })

  let db: PGlite | undefined
  afterAll(async () => {
    await db?.close()
  }, 60_000)
  it('pgliteStore', async () => {
    db = await pgliteFromTemplate()
    const shared = db
    await fc.assert(
      fc.asyncProperty(roundsArb, async (rounds) => {
        const clock = { now: 0 }
        const store = pgliteStore({ db: shared, schema: freshSchema('model'), clock: () => clock.now })
        await runModel(store, rounds, clock)
        await store.close()
      }),
      { numRuns: 12 },
    )
  }, 300_000)

  requirePostgresInCi()
  it.skipIf(!POSTGRES_URL)(`postgresStore (real concurrency: one connection per writer)${POSTGRES_URL ? '' : ` — skipped: ${POSTGRES_SKIP_REASON}`}`, async () => {
    await fc.assert(
      fc.asyncProperty(roundsArb, async (rounds) => {
        const clock = { now: 0 }
        const store = postgresStore({ connectionString: POSTGRES_URL as string, schema: freshSchema('model'), clock: () => clock.now, max: 4 })
        try {
          await runModel(store, rounds, clock)
        } finally {
          await store.close()
        }
      }),
      { numRuns: 25 },
    )
  }, 300_000)
})

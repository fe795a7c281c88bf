import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import type { ActionConfirmation } from '../../src/contract/action-confirmation.js'
import type { Message } from '../../src/contract/message.js'
import { createConfirmationRecord, reduceConfirmation } from '../../src/conversation/confirmation-record.js'
import { confirmationLedgerOf, memoryStore, pgliteStore, postgresStore, type ConversationStore } from '../../src/store/index.js'
import { MIGRATIONS, statements } from '../../src/store/sql/schema.js'
import { everyStore } from '../server/support/every-store.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'
import { DATABASE_ROWS } from '../support/store-rows.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'

const T0 = Date.UTC(2030, 0, 1)
const DEF = { id: 'def', revision: 1 }
const message = (id: string): Message => ({ id, role: 'user', content: id, status: 'complete', createdAt: new Date(T0) })

const record = (token: string, sessionId = 's1', at = T0): ActionConfirmation =>
  createConfirmationRecord({ token, sessionId, principal: 'alice', action: { name: 'refund', input: { amount: 5, note: 'ünïcode' } }, toolCallId: `call-${token}`, idempotencyKey: `key-${token}`, ttlMs: 60_000 }, at)
const approving = (r: ActionConfirmation, claimId: string): ActionConfirmation => reduceConfirmation(r, { type: 'approve', by: 'alice', claim: { id: claimId, until: T0 + 1000 } }, T0)

const stores = everyStore('conf', 'confirmation records')

async function saveAll(store: ConversationStore, records: readonly ActionConfirmation[]): Promise<void> {
  for (const r of records) expect(await store.saveConfirmation?.(r, 0)).toBe(true)
}

describe.each(stores)('confirmation records: %s', (_name, make) => {
  it('inserts once, reads back an equal deep-frozen record, and refuses a second insert of the token', async () => {
    const store = await make()
    const r = record('ct-a')
    expect(await store.saveConfirmation?.(r, 0)).toBe(true)
    expect(await store.saveConfirmation?.(record('ct-a', 's2'), 0)).toBe(false)
    const loaded = await store.loadConfirmation?.('ct-a')
    expect(loaded).toEqual(r)
    expect(Object.isFrozen(loaded?.action.input)).toBe(true)
    expect(await store.loadConfirmation?.('ct-missing')).toBeUndefined()
    await store.close()
  })

  it('compare-and-swap on the revision: a stale writer loses, and exactly one of many concurrent writers wins', async () => {
    const store = await make()
    const r = record('ct-b')
    await saveAll(store, [r])
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.saveConfirmation?.(approving(r, `claim-${i}`), r.revision)))
    expect(results.filter(Boolean)).toHaveLength(1)
    const winner = await store.loadConfirmation?.('ct-b')
    expect(winner?.status).toBe('approving')
    expect(results.findIndex(Boolean)).toBe(Number(winner?.claim?.id.slice('claim-'.length)))
    // the stale revision again: refused
    expect(await store.saveConfirmation?.(approving(r, 'late'), r.revision)).toBe(false)
    await store.close()
  })

  it('never moves a record to another session', async () => {
    const store = await make()
    const r = record('ct-c')
    await saveAll(store, [r])
    const moved = { ...approving(r, 'x'), sessionId: 'other' }
    expect(await store.saveConfirmation?.(moved, r.revision)).toBe(false)
    expect((await store.loadConfirmation?.('ct-c'))?.sessionId).toBe('s1')
    await store.close()
  })

  it('lists a session’s records oldest first, bounded by limit', async () => {
    const store = await make()
    await saveAll(store, [record('ct-z', 's1', T0 + 2), record('ct-y', 's1', T0 + 1), record('ct-x', 's2', T0), record('ct-w', 's1', T0 + 3)])
    expect((await store.listConfirmations?.('s1'))?.map((r) => r.token)).toEqual(['ct-y', 'ct-z', 'ct-w'])
    expect((await store.listConfirmations?.('s1', { limit: 2 }))?.map((r) => r.token)).toEqual(['ct-y', 'ct-z'])
    expect(await store.listConfirmations?.('nobody')).toEqual([])
    await store.close()
  })

  it('refuses a record whose revision is not expected + 1 (a caller’s mistake, not a row)', async () => {
    const store = await make()
    await expect(store.saveConfirmation!(record('ct-d'), 1)).rejects.toThrow(TypeError)
    await store.close()
  })

  it('delete and expire take a conversation’s records with it', async () => {
    let now = T0
    const store = await make({ clock: () => now })
    await store.append('s1', { expectedVersion: 0, messages: [message('u1')], definition: DEF })
    await store.append('s2', { expectedVersion: 0, messages: [message('u1')], definition: DEF })
    await saveAll(store, [record('ct-e', 's1'), record('ct-f', 's2')])
    expect(await store.delete('s1')).toBe(true)
    expect(await store.loadConfirmation?.('ct-e')).toBeUndefined()
    now += 10_000
    expect(await store.expire({ idleMs: 1000 })).toBe(1)
    expect(await store.loadConfirmation?.('ct-f')).toBeUndefined()
    await store.close()
  })
})

describe('confirmationLedgerOf', () => {
  it('is a store’s three methods, and refuses a store without them', async () => {
    const store = memoryStore()
    const ledger = confirmationLedgerOf(store)
    expect(await ledger.saveConfirmation(record('ct-l'), 0)).toBe(true)
    expect((await store.loadConfirmation?.('ct-l'))?.token).toBe('ct-l')
    const { saveConfirmation: _s, loadConfirmation: _l, listConfirmations: _c, ...older } = store
    expect(() => confirmationLedgerOf({ ...older, kind: 'older' })).toThrow(expect.objectContaining({ code: 'CONFIRMATIONS_UNSUPPORTED' }))
  })
})

// Migration 5 only adds a table: a database at version 4 migrates in place and an instance of the
// previous version (which never reads confirmations) keeps working beside a new one.
type Run = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>

async function versionFour(run: Run, schema: string): Promise<void> {
  await run(`CREATE SCHEMA ${schema}`)
  await run(`CREATE TABLE ${schema}.chatrail_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
  for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) {
    await run(migration.sql(schema))
    await run(`INSERT INTO ${schema}.chatrail_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
  }
  const bodies = [message('u1')].map((m) => JSON.stringify({ ...m, createdAt: m.createdAt.toISOString() }))
  await run(statements(schema).append, ['old', 0, DEF.id, 1, JSON.stringify(['u1']), JSON.stringify(bodies), false, null, null, null, null, T0, null])
}

async function checkMigrated(store: ConversationStore, run: Run, schema: string): Promise<void> {
  expect((await store.load('old'))?.messages.map((m) => m.content)).toEqual(['u1'])
  const [row] = await run(`SELECT max(version) AS v FROM ${schema}.chatrail_migrations`)
  expect(Number(row?.v)).toBe(5)
  await saveAll(store, [record('ct-old', 'old')])
  // the previous version's delete (schema 4: it knows turn parts, not confirmations) still works
  await run(`WITH gone AS (DELETE FROM ${schema}.chatrail_leases WHERE conversation_id = $1),
      turns AS (DELETE FROM ${schema}.chatrail_turns WHERE conversation_id = $1)
      DELETE FROM ${schema}.chatrail_conversations WHERE id = $1 RETURNING id`, ['old'])
  expect(await store.load('old')).toBeUndefined()
  // (its delete leaves the records; the new version's delete of the id removes them)
  expect(await store.loadConfirmation?.('ct-old')).toBeDefined()
  await store.delete('old')
  expect(await store.loadConfirmation?.('ct-old')).toBeUndefined()
}

// not in `npm run test:unit` (CHATRAIL_TEST_STORES=memory), which opens no database
describe.runIf(DATABASE_ROWS)('migration 5 (confirmations) is backward compatible', () => {
  let pglite: PGlite | undefined
  afterAll(async () => {
    await pglite?.close()
  })

  it('pgliteStore', async () => {
    pglite = await pgliteFromTemplate()
    const db = pglite
    const schema = freshSchema('v4')
    const run: Run = async (sql, params) => (params ? (await db.query<Record<string, unknown>>(sql, params)).rows : ((await db.exec(sql)).at(-1)?.rows ?? []) as Array<Record<string, unknown>>)
    await versionFour(run, schema)
    const store = pgliteStore({ db, schema, clock: () => T0 })
    await checkMigrated(store, run, schema)
    await store.close()
  }, 60_000)

  requirePostgresInCi()
  if (!POSTGRES_URL) it.skip(`postgresStore — skipped: ${POSTGRES_SKIP_REASON}`, () => undefined)
  else {
    const connectionString = POSTGRES_URL
    it('postgresStore', async () => {
      const pg = await import('pg')
      const pool = new pg.default.Pool({ connectionString, max: 2 })
      try {
        const schema = freshSchema('v4')
        const run: Run = async (sql, params) => {
          const result = await pool.query(sql, params)
          return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Array<Record<string, unknown>>
        }
        await versionFour(run, schema)
        const store = postgresStore({ pool, schema, clock: () => T0 })
        await checkMigrated(store, run, schema)
        await store.close()
      } finally {
        await pool.end()
      }
    }, 60_000)
  }
})

import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { MIGRATIONS } from '../../src/store/sql/schema.js'
import { isOwnerMismatchError, pgliteStore, postgresStore, type ConversationStore } from '../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'

// A store opened on tables an older chatrail created (schema version 1, before owners and turn
// signals) migrates them in place: the stored conversation and its lease stay usable, the
// conversation belongs to nobody, and the new columns work from then on.

const DEF = { id: 'legacy-def', revision: 1 }
const T0 = Date.UTC(2030, 0, 1)
const message = (id: string, role: Message['role'], content: string): Message => ({ id, role, content, status: 'complete', createdAt: new Date(T0) })

/** Version-1 tables holding one conversation and a released lease, written by version 1's own function. */
async function legacySchema(run: (sql: string, params?: unknown[]) => Promise<unknown>, schema: string): Promise<void> {
  const v1 = MIGRATIONS.find((m) => m.version === 1)
  if (!v1) throw new Error('migration 1 is missing')
  await run(`CREATE SCHEMA ${schema}`)
  await run(`CREATE TABLE ${schema}.chatrail_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
  await run(v1.sql(schema))
  await run(`INSERT INTO ${schema}.chatrail_migrations (version, name) VALUES (1, 'v1')`)
  const bodies = [message('u1', 'user', 'hello'), message('a1', 'assistant', 'hi')].map((m) => JSON.stringify({ ...m, createdAt: m.createdAt.toISOString() }))
  await run(`SELECT * FROM ${schema}.chatrail_append($1, 0, $2, 1, $3, $4, false, NULL, NULL, NULL, NULL, $5)`, ['old', DEF.id, JSON.stringify(['u1', 'a1']), JSON.stringify(bodies), T0])
  await run(`INSERT INTO ${schema}.chatrail_leases (conversation_id, turn_id, token, expires_at, released) VALUES ('old', 't0', 3, $1, true)`, [T0])
}

async function checkMigrated(store: ConversationStore, now: { value: number }): Promise<void> {
  const old = await store.load('old')
  expect(old?.messages.map((m) => m.content)).toEqual(['hello', 'hi'])
  expect(old?.owner).toBeUndefined()
  expect(old?.version).toBe(1)
  // nobody's: a write naming an owner is refused, a host write naming none goes on
  expect(isOwnerMismatchError(await store.append('old', { expectedVersion: 1, messages: [message('u2', 'user', 'x')], definition: DEF, owner: 'alice' }).catch((e: unknown) => e))).toBe(true)
  expect((await store.append('old', { expectedVersion: 1, messages: [message('u2', 'user', 'again')], definition: DEF })).version).toBe(2)
  // the old lease row takes signals once claimed again (its token keeps growing)
  const claimed = await store.claim('old', 't1', { leaseMs: 1000 })
  if (claimed.status !== 'claimed') throw new Error('claim must succeed')
  expect(claimed.lease.token).toBe(4)
  expect(await store.signal('old', { type: 'stop' })).toBe(true)
  expect(await store.takeSignals(claimed.lease)).toEqual({ stop: true })
  // new conversations keep their owner
  now.value += 1
  await store.append('new', { expectedVersion: 0, messages: [message('n1', 'user', 'mine')], definition: DEF, owner: 'alice' })
  expect((await store.load('new'))?.owner).toBe('alice')
}

describe('SQL stores migrate version-1 tables in place (owner column, turn signals)', () => {
  let pglite: PGlite | undefined
  afterAll(async () => {
    await pglite?.close()
  })

  it('pgliteStore', async () => {
    pglite = await pgliteFromTemplate()
    const db = pglite
    const schema = freshSchema('legacy')
    await legacySchema((sql, params) => (params ? db.query(sql, params) : db.exec(sql)), schema)
    const now = { value: T0 }
    const store = pgliteStore({ db, schema, clock: () => now.value })
    await checkMigrated(store, now)
    const [row] = (await db.query<{ v: number }>(`SELECT max(version) AS v FROM ${schema}.chatrail_migrations`)).rows
    expect(row?.v).toBe(MIGRATIONS.at(-1)?.version)
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
        const schema = freshSchema('legacy')
        await legacySchema((sql, params) => pool.query(sql, params), schema)
        const now = { value: T0 }
        const store = postgresStore({ pool, schema, clock: () => now.value })
        await checkMigrated(store, now)
        await store.close()
      } finally {
        await pool.end()
      }
    }, 60_000)
  }
})

import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { MIGRATIONS, statements } from '../../src/store/sql/schema.js'
import { pgliteStore, postgresStore, type ConversationStore } from '../../src/store/index.js'
import { TURN_PARTS_RETENTION_MS } from '../../src/store/turn-parts.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'

// Migration 4 (turn parts, for resumable streams) is backward compatible: a database at version 3
// migrates in place, and an instance of the previous version (schema version 3, which knows
// nothing of turn parts) keeps working on the migrated database side by side with a new one. The
// previous version's statements are run as it ran them: the ones migration 4's release changed
// (delete, expire) are copied here from that release; the rest are unchanged.

const DEF = { id: 'legacy-def', revision: 1 }
const T0 = Date.UTC(2030, 0, 1)
const message = (id: string, role: Message['role'], content: string): Message => ({ id, role, content, status: 'complete', createdAt: new Date(T0) })

/** The previous version's `delete` and `expire` (schema version 3), verbatim. */
const previous = (s: string) => ({
  delete: `WITH gone AS (DELETE FROM ${s}.chatrail_leases WHERE conversation_id = $1)
      DELETE FROM ${s}.chatrail_conversations WHERE id = $1 RETURNING id`,
  expire: `WITH gone AS (
        DELETE FROM ${s}.chatrail_conversations c WHERE c.updated_at < $1
          AND NOT EXISTS (SELECT 1 FROM ${s}.chatrail_leases l WHERE l.conversation_id = c.id AND NOT l.released AND l.expires_at > $2)
        RETURNING c.id),
      leases AS (DELETE FROM ${s}.chatrail_leases WHERE conversation_id IN (SELECT id FROM gone))
      SELECT count(*)::integer AS n FROM gone`,
})

type Run = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>

/** Tables at schema version 3 (migrations 1–3) holding one conversation. */
async function versionThree(run: Run, schema: string): Promise<void> {
  await run(`CREATE SCHEMA ${schema}`)
  await run(`CREATE TABLE ${schema}.chatrail_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
  for (const migration of MIGRATIONS.filter((m) => m.version <= 3)) {
    await run(migration.sql(schema))
    await run(`INSERT INTO ${schema}.chatrail_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
  }
  const bodies = [message('u1', 'user', 'hello'), message('a1', 'assistant', 'hi')].map((m) => JSON.stringify({ ...m, createdAt: m.createdAt.toISOString() }))
  await run(statements(schema).append, ['old', 0, DEF.id, 1, JSON.stringify(['u1', 'a1']), JSON.stringify(bodies), false, null, null, null, null, T0, null])
}

async function checkSideBySide(store: ConversationStore, run: Run, schema: string, now: { value: number }): Promise<void> {
  const old = previous(schema)
  const sql = statements(schema)
  // the new instance migrates the version-3 tables and reads what the old version wrote
  expect((await store.load('old'))?.messages.map((m) => m.content)).toEqual(['hello', 'hi'])
  const [row] = await run(`SELECT max(version) AS v FROM ${schema}.chatrail_migrations`)
  // up to the newest migration (5, confirmations, came after this one)
  expect(Number(row?.v)).toBe(MIGRATIONS.at(-1)?.version)
  // a turn on the new instance records parts
  const claimed = await store.claim('old', 'new-turn', { leaseMs: 10_000 })
  if (claimed.status !== 'claimed') throw new Error('claim must succeed')
  expect(await store.appendTurnParts?.('old', { lease: claimed.lease, seq: 0, parts: ['{"type":"start"}'] })).toEqual({ status: 'appended', next: 1 })
  await store.append('old', { expectedVersion: 1, messages: [message('u2', 'user', 'again'), message('a2', 'assistant', 'yes')], definition: DEF, lease: claimed.lease, release: 'completed' })
  await store.appendTurnParts?.('old', { lease: claimed.lease, seq: 1, parts: ['{"type":"finish"}'], finished: true })
  // the previous version's instance: its claim, its append (the same function), its reads, on the migrated tables
  const [taken] = await run(sql.claim, ['old', 'old-turn', T0 + 10_000, now.value, null])
  expect(Number(taken?.lease_token)).toBe(claimed.lease.token + 1)
  const bodies = [message('u3', 'user', 'from the old one'), message('a3', 'assistant', 'ok')].map((m) => JSON.stringify({ ...m, createdAt: m.createdAt.toISOString() }))
  const [appended] = await run(sql.append, ['old', 2, DEF.id, 1, JSON.stringify(['u3', 'a3']), JSON.stringify(bodies), false, null, 'old-turn', Number(taken?.lease_token), 'completed', now.value, null])
  expect(appended?.status).toBe('appended')
  expect((await store.load('old'))?.messages).toHaveLength(6)
  // its turn recorded nothing: the new instance says nothing runs for it (the handler answers 204)
  expect((await store.readTurnParts?.('old'))?.turn).toBeUndefined()
  // its delete leaves the conversation's turn records behind (it does not know them) …
  await run(old.delete, ['old'])
  expect(await store.load('old')).toBeUndefined()
  expect((await store.readTurnParts?.('old', { turnId: 'new-turn' }))?.turn?.finished).toBe(true)
  // … and the next turn's first batch on a new instance sweeps them once idle past the retention
  now.value += TURN_PARTS_RETENTION_MS + 1
  const next = await store.claim('other', 'turn-1', { leaseMs: 10_000 })
  if (next.status !== 'claimed') throw new Error('claim must succeed')
  await store.appendTurnParts?.('other', { lease: next.lease, seq: 0, parts: ['{"type":"start"}'] })
  expect((await store.readTurnParts?.('old', { turnId: 'new-turn' }))?.turn).toBeUndefined()
  // the previous version's expire runs on the migrated tables too
  const [expired] = await run(old.expire, [now.value, now.value])
  expect(Number(expired?.n)).toBe(0)
}

describe('migration 4 (turn parts) is backward compatible with instances of the previous version', () => {
  let pglite: PGlite | undefined
  afterAll(async () => {
    await pglite?.close()
  })

  it('pgliteStore', async () => {
    pglite = await pgliteFromTemplate()
    const db = pglite
    const schema = freshSchema('v3')
    const run: Run = async (sql, params) => (params ? (await db.query<Record<string, unknown>>(sql, params)).rows : ((await db.exec(sql)).at(-1)?.rows ?? []) as Array<Record<string, unknown>>)
    await versionThree(run, schema)
    const now = { value: T0 }
    const store = pgliteStore({ db, schema, clock: () => now.value })
    await checkSideBySide(store, run, schema, now)
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
        const schema = freshSchema('v3')
        const run: Run = async (sql, params) => {
          const result = await pool.query(sql, params)
          return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as Array<Record<string, unknown>>
        }
        await versionThree(run, schema)
        const now = { value: T0 }
        const store = postgresStore({ pool, schema, clock: () => now.value })
        await checkSideBySide(store, run, schema, now)
        await store.close()
      } finally {
        await pool.end()
      }
    }, 60_000)
  }
})

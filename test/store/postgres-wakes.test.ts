import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postgresStore, type ConversationStore } from '../../src/store/index.js'
import { statements } from '../../src/store/sql/schema.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { eventually } from '../server/support/harness.js'
import { settle, wakeCases, wakesOf } from './support/wake-cases.js'

// `subscribe` on Postgres: two store objects (two instances: two pools, two LISTEN connections) on
// one schema wake each other through NOTIFY, sent in the write's own statement, so a write that
// rolls back wakes nobody; the listener comes back after its connection is killed (and wakes every
// subscriber, since it may have missed a write) and goes away with close().

requirePostgresInCi()

const listenerName = (schema: string): string => `chatrail listen ${schema}`

if (!POSTGRES_URL) {
  describe('subscribe: postgresStore', () => it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined))
} else {
  const connectionString = POSTGRES_URL
  const twoInstances = (schema = freshSchema('wakes')): { writer: ConversationStore; reader: ConversationStore } => ({
    writer: postgresStore({ connectionString, schema, max: 2 }),
    reader: postgresStore({ connectionString, schema, max: 2 }),
  })

  describe('subscribe: postgresStore (two instances on one schema)', () => {
    wakeCases(async () => twoInstances(), async ({ writer, reader }) => {
      await writer.close()
      await reader.close()
    })
  })

  describe('subscribe: postgresStore, the listener', () => {
    let admin: pg.Client
    beforeAll(async () => {
      admin = new pg.Client({ connectionString })
      await admin.connect()
    })
    afterAll(async () => {
      await admin?.end()
    })
    const listenerPids = async (schema: string): Promise<number[]> =>
      (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [listenerName(schema)])).rows.map((row) => row.pid)

    it('a signal written in a transaction that rolls back wakes nobody; the same signal committed does', async () => {
      const schema = freshSchema('wakes')
      const { writer, reader } = twoInstances(schema)
      try {
        const wakes = wakesOf(reader, 'c1')
        await settle()
        const before = wakes.count()
        const claim = await writer.claim('c1', 't1', { leaseMs: 60_000 })
        expect(claim.status).toBe('claimed')
        const signal = [statements(schema).signal, ['c1', true, null, Date.now(), null]] as const
        await admin.query('BEGIN')
        expect((await admin.query(signal[0], [...signal[1]])).rowCount).toBe(1)
        await admin.query('ROLLBACK')
        await settle(300)
        expect(wakes.count()).toBe(before)
        await admin.query(signal[0], [...signal[1]])
        await wakes.reached(before + 1)
      } finally {
        await writer.close()
        await reader.close()
      }
    })

    it('a killed LISTEN connection comes back: every subscriber is woken once, and later writes wake again', async () => {
      const schema = freshSchema('wakes')
      const { writer, reader } = twoInstances(schema)
      try {
        const wakes = wakesOf(reader, 'c1')
        await eventually(async () => (await listenerPids(schema)).length === 1)
        const [pid] = await listenerPids(schema)
        // the first LISTEN wakes us once (anything written before it was missed)
        await wakes.reachedMissed(1)
        await admin.query('SELECT pg_terminate_backend($1)', [pid])
        // back on a new connection (the first retry is 100 ms later), and it wakes us again
        await wakes.reachedMissed(2)
        expect(wakes.count()).toBe(0)
        const pids = await listenerPids(schema)
        expect(pids).toHaveLength(1)
        expect(pids[0]).not.toBe(pid)
        await writer.claim('c1', 't1', { leaseMs: 60_000 })
        expect(await writer.signal('c1', { type: 'stop' })).toBe(true)
        await wakes.reached(1)
        expect(wakes.written()).toEqual(['signal'])
      } finally {
        await writer.close()
        await reader.close()
      }
    })

    it('a write made while the listener is down is not lost: the wake on reconnect makes the reader read it', async () => {
      const schema = freshSchema('wakes')
      const { writer, reader } = twoInstances(schema)
      try {
        const wakes = wakesOf(reader, 'c1')
        await eventually(async () => (await listenerPids(schema)).length === 1)
        const [pid] = await listenerPids(schema)
        const claim = await writer.claim('c1', 't1', { leaseMs: 60_000 })
        if (claim.status !== 'claimed') throw new Error('not claimed')
        await wakes.reachedMissed(1)
        await admin.query('SELECT pg_terminate_backend($1)', [pid])
        expect(await writer.signal('c1', { type: 'stop' })).toBe(true)
        // whether the signal's own notification made it or not, the reconnect wakes the reader
        await wakes.reachedMissed(2)
        expect(await reader.takeSignals(claim.lease)).toEqual({ stop: true })
      } finally {
        await writer.close()
        await reader.close()
      }
    })

    it('a pool you pass: the store listens on a connection of its own, configured as the pool’s, and leaves the pool to you', async () => {
      const schema = freshSchema('wakes')
      const pool = new pg.Pool({ connectionString, max: 1, application_name: `app pool ${schema}` })
      const store = postgresStore({ pool, schema })
      const writer = postgresStore({ connectionString, schema, max: 2 })
      try {
        const wakes = wakesOf(store, 'c1')
        // the pool's application_name is kept on the listener: it is configured as the pool's connections are
        await eventually(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query LIKE $2', [`app pool ${schema}`, 'LISTEN%'])).rowCount === 1)
        // a pool of one connection still serves queries: the listener is not one of its connections
        await store.claim('c1', 't1', { leaseMs: 60_000 })
        await settle()
        const before = wakes.count()
        expect(await writer.signal('c1', { type: 'stop' })).toBe(true)
        await wakes.reached(before + 1)
        expect(pool.totalCount).toBeLessThanOrEqual(1)
      } finally {
        await store.close()
        await writer.close()
      }
      expect(pool.ended).toBe(false)
      await pool.end()
    })

    it('one LISTEN connection per store, whatever the subscribers; none before the first subscribe and none after close()', async () => {
      const schema = freshSchema('wakes')
      const store = postgresStore({ connectionString, schema, max: 2 })
      try {
        await store.open?.()
        expect(await listenerPids(schema)).toEqual([])
        const offs = Array.from({ length: 20 }, (_, n) => wakesOf(store, `c${n % 5}`).unsubscribe)
        await eventually(async () => (await listenerPids(schema)).length === 1)
        await settle()
        expect(await listenerPids(schema)).toHaveLength(1)
        for (const off of offs) off()
      } finally {
        await store.close()
      }
      await eventually(async () => (await listenerPids(schema)).length === 0)
    })
  })
}

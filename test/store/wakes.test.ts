import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryStore, pgliteStore } from '../../src/store/index.js'
import { createStoreWakes } from '../../src/store/store-wakes.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'
import { DATABASE_ROWS } from '../support/store-rows.js'
import { freshSchema } from './postgres-env.js'
import { settle, wakeCases, wakesOf } from './support/wake-cases.js'

// `ConversationStore.subscribe` in one process: the memory store wakes its subscribers itself;
// PGlite stores wake from the database's own notifications, so two stores on one PGlite database
// (two schemas' worth of objects, as two handlers would hold) wake each other. Postgres, across
// connections and with a listener that reconnects: postgres-wakes.test.ts.

describe('subscribe: memoryStore', () => {
  wakeCases(async () => {
    const store = memoryStore()
    return { writer: store, reader: store }
  }, async ({ writer }) => writer.close())
})

// not in `npm run test:unit` (CHATRAIL_TEST_STORES=memory), which opens no database
describe.runIf(DATABASE_ROWS)('subscribe: pgliteStore (two store objects on one database)', () => {
  let db: PGlite | undefined
  afterAll(async () => {
    await db?.close()
  })
  wakeCases(async () => {
    db ??= await pgliteFromTemplate()
    const schema = freshSchema('wakes')
    return { writer: pgliteStore({ db, schema }), reader: pgliteStore({ db, schema }) }
  }, async ({ writer, reader }) => {
    await writer.close()
    await reader.close()
  })

  it('a store in another schema of the same database is not woken by this one’s writes', async () => {
    db ??= await pgliteFromTemplate()
    const here = pgliteStore({ db, schema: freshSchema('wakes') })
    const there = pgliteStore({ db, schema: freshSchema('wakes') })
    try {
      const wakes = wakesOf(there, 'c1')
      await settle()
      const before = wakes.count()
      await here.claim('c1', 't1', { leaseMs: 60_000 })
      expect(await here.signal('c1', { type: 'stop' })).toBe(true)
      await settle()
      expect(wakes.count()).toBe(before)
    } finally {
      await here.close()
      await there.close()
    }
  })
})

describe('createStoreWakes', () => {
  it('wakes in a microtask, after the writer’s own code; a subscriber that throws keeps the others woken', async () => {
    const errors: unknown[] = []
    const wakes = createStoreWakes((error) => errors.push(error))
    const order: string[] = []
    wakes.subscribe('a', () => {
      throw new Error('boom')
    })
    wakes.subscribe('a', () => order.push('a'))
    const offB = wakes.subscribe('b', () => order.push('b'))
    wakes.wake('a', 'signal')
    order.push('writer')
    await Promise.resolve()
    expect(order).toEqual(['writer', 'a'])
    expect(errors).toHaveLength(1)
    wakes.wakeAll()
    await Promise.resolve()
    expect(order).toEqual(['writer', 'a', 'a', 'b'])
    offB()
    expect(wakes.size).toBe(1)
  })

  it('the same function subscribed twice is two subscriptions: each unsubscribe ends one', async () => {
    const wakes = createStoreWakes()
    let calls = 0
    const onWake = (): void => {
      calls += 1
    }
    const first = wakes.subscribe('a', onWake)
    wakes.subscribe('a', onWake)
    first()
    first()
    wakes.wake('a', 'signal')
    await Promise.resolve()
    expect(calls).toBe(1)
  })
})

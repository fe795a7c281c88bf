import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { createChatController } from '../../src/controller/index.js'
import { commandRoute, defineChat } from '../../src/index.js'
import { isStoreCorruptRowError, isStoreUnavailableError, openStoredChat, pgliteStore, postgresStore, type ConversationStore } from '../../src/store/index.js'
import { MIGRATIONS } from '../../src/store/sql/schema.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { startOwnPostgres } from './support/own-postgres.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'

// Faults the SQL stores must survive: rows changed behind chatrail's back, the server going away
// mid-conversation, and several instances migrating one schema at once.

const T = Date.UTC(2030, 0, 1)
const DEF = { id: 'faults', revision: 1 }
const turn = (text: string): Message[] => [
  { id: `u-${text}`, role: 'user', content: text, status: 'complete', createdAt: new Date(T) },
  { id: `a-${text}`, role: 'assistant', content: `re: ${text}`, status: 'complete', createdAt: new Date(T) },
]

type Raw = (sql: string) => Promise<unknown>

async function corruptRows(store: ConversationStore, raw: Raw, schema: string): Promise<void> {
  await store.append('good', { expectedVersion: 0, messages: turn('fine'), definition: DEF })
  await store.append('bad', { expectedVersion: 0, messages: [...turn('one'), ...turn('two')], definition: DEF })
  await raw(`UPDATE ${schema}.chatrail_messages SET body = '{"id": "a-one", "role": ' WHERE conversation_id = 'bad' AND seq = 2`)
  const error = await store.load('bad').catch((e: unknown) => e)
  expect(isStoreCorruptRowError(error)).toBe(true)
  expect(error).toMatchObject({ code: 'STORE_CORRUPT_ROW', conversationId: 'bad', row: 2, messageId: 'a-one' })
  expect((error as Error).message).toMatch(/Conversation "bad", row 2 \(message "a-one"\): the stored message is not valid JSON/)
  // Valid JSON that is not a message is corrupt too, and names the field.
  await raw(`UPDATE ${schema}.chatrail_messages SET body = '{"id": "a-one", "role": "robot"}' WHERE conversation_id = 'bad' AND seq = 2`)
  expect(await store.load('bad').catch((e: unknown) => (e as Error).message)).toMatch(/row 2 .*invalid at role/)
  // Other conversations are unaffected.
  expect((await store.load('good'))?.messages).toEqual(turn('fine'))
}

describe('corrupt rows', () => {
  let db: PGlite | undefined
  afterAll(async () => {
    await db?.close()
  }, 60_000)

  it('PGlite: invalid JSON is a typed error naming conversation and row; other conversations load', async () => {
    db = await pgliteFromTemplate()
    const schema = freshSchema('corrupt')
    const store = pgliteStore({ db, schema })
    const shared = db
    await corruptRows(store, (sql) => shared.exec(sql), schema)
  }, 120_000)

  requirePostgresInCi()
  it.skipIf(!POSTGRES_URL)(`Postgres: the same${POSTGRES_URL ? '' : ` — skipped: ${POSTGRES_SKIP_REASON}`}`, async () => {
    const schema = freshSchema('corrupt')
    const store = postgresStore({ connectionString: POSTGRES_URL as string, schema })
    const client = new pg.Client({ connectionString: POSTGRES_URL })
    await client.connect()
    try {
      await corruptRows(store, (sql) => client.query(sql), schema)
    } finally {
      await client.end()
      await store.close()
    }
  }, 60_000)
})

describe.skipIf(!POSTGRES_URL)(`Postgres${POSTGRES_URL ? '' : ` — skipped: ${POSTGRES_SKIP_REASON}`}`, () => {
  it('several instances starting at once migrate the schema exactly once (advisory lock)', async () => {
    const schema = freshSchema('migrate')
    const stores = Array.from({ length: 6 }, () => postgresStore({ connectionString: POSTGRES_URL as string, schema, max: 2 }))
    try {
      const loaded = await Promise.all(stores.map((store, i) => store.load(`nothing-${i}`)))
      expect(loaded.every((c) => c === undefined)).toBe(true)
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      const { rows } = await client.query(`SELECT version FROM ${schema}.chatrail_migrations ORDER BY version`)
      await client.end()
      expect(rows).toEqual(MIGRATIONS.map((migration) => ({ version: migration.version }))) // each applied once
    } finally {
      await Promise.all(stores.map((store) => store.close()))
    }
  }, 60_000)

  it('Postgres stopped mid-conversation: the turn fails with a clear error, nothing half-written; back up, the next turn works', async () => {
    const server = startOwnPostgres()
    const store = postgresStore({ connectionString: server.url })
    const definition = defineChat({
      id: 'outage',
      chat: { adapter: scriptedAdapter(['agent']) },
      conversation: { initial: 'idle', states: { idle: { on: { ping: 'idle' } } }, routes: [commandRoute({ id: 'ping', command: '/ping', event: 'ping', response: 'pong' })] },
    })
    let n = 0
    const errors: unknown[] = []
    try {
      const chat = await openStoredChat({ store, definition, conversationId: 'outage-1', session: { lint: false }, onError: (e) => errors.push(e), createController: (config) => createChatController(config, { ids: () => `m${++n}`, clock: () => new Date(T) }) })
      await chat.controller.send('/ping')
      await chat.flushed()
      server.stop()
      await chat.controller.send('/ping')
      const failure = await chat.flushed().catch((e: unknown) => e)
      expect(isStoreUnavailableError(failure)).toBe(true)
      expect(failure).toMatchObject({ code: 'STORE_UNAVAILABLE', operation: 'append' })
      expect((failure as Error).message).toMatch(/^The conversation store failed during append: .+\. The operation was not applied\.$/)
      server.start()
      const during = await store.load('outage-1')
      expect(during?.version).toBe(1)
      expect(during?.messages.map((m) => m.id)).toEqual(['m1', 'm2'])
      // Back up: the next turn stores itself and the turn the outage held back, in one append.
      await chat.controller.send('/ping')
      await chat.flushed()
      const after = await store.load('outage-1')
      expect(after?.version).toBe(2)
      expect(after?.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6'])
      expect(errors).toHaveLength(1)
    } finally {
      await store.close()
      server.destroy()
    }
  }, 120_000)
})

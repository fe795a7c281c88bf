import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, it } from 'vitest'
import { memoryStore, pgliteStore, postgresStore, type ConversationStore, type StoreOptions } from '../../../src/store/index.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from '../../store/postgres-env.js'
import { pgliteFromTemplate } from '../../support/pglite-template.js'
import { DATABASE_ROWS } from '../../support/store-rows.js'

export type MakeStore = (options?: StoreOptions) => Promise<ConversationStore>

export interface StoreNames {
  memory: string
  pglite: string
  postgres: string
}

const storeNames: StoreNames = { memory: 'memoryStore', pglite: 'pgliteStore', postgres: 'postgresStore' }

/**
 * The stores a server suite runs on, as `[name, make]` rows for `describe.each`: memory; PGlite
 * (one in-memory database per test file, loaded from the migrated template and closed after the
 * file, each store in a schema of its own); Postgres at CHATRAIL_TEST_POSTGRES_URL. Without that
 * URL the Postgres row is a skipped case titled `<suite>: <postgres name>` saying why, and under
 * CI it is an error instead (requirePostgresInCi). With CHATRAIL_TEST_STORES=memory (`npm run test:unit`)
 * the memory row alone. Call it at the top level of the test file.
 */
export function everyStore(schemaPrefix: string, suite: string, names: StoreNames = storeNames): Array<[string, MakeStore]> {
  const memory: [string, MakeStore] = [names.memory, async (options) => memoryStore(options)]
  if (!DATABASE_ROWS) return [memory] // npm run test:unit (CHATRAIL_TEST_STORES=memory)
  let pglite: PGlite | undefined
  afterAll(async () => {
    await pglite?.close()
  })
  requirePostgresInCi()
  const postgresUrl = POSTGRES_URL
  if (!postgresUrl) describe(`${suite}: ${names.postgres}`, () => it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined))
  return [
    memory,
    [names.pglite, async (options) => pgliteStore({ ...options, db: (pglite ??= await pgliteFromTemplate()), schema: freshSchema(schemaPrefix) })],
    ...(postgresUrl ? [[names.postgres, async (options?: StoreOptions) => postgresStore({ ...options, connectionString: postgresUrl, schema: freshSchema(schemaPrefix), max: 4 })] as [string, MakeStore]] : []),
  ]
}

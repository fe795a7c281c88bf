import type { PGlite } from '@electric-sql/pglite'
import { afterAll, describe, it } from 'vitest'
import { memoryStore, pgliteStore, postgresStore } from '../../src/store/index.js'
import { describeStoreContract } from '../../src/testing/vitest.js'
import { freshSchema, POSTGRES_SKIP_REASON, POSTGRES_URL, requirePostgresInCi } from './postgres-env.js'
import { pgliteFromTemplate } from '../support/pglite-template.js'
import { DATABASE_ROWS } from '../support/store-rows.js'

// One conformance suite, three stores (ARCHITECTURE invariant 8).
describeStoreContract('memoryStore', (options) => memoryStore(options))

// The database rows: not in `npm run test:unit` (CHATRAIL_TEST_STORES=memory), which opens no database.
if (DATABASE_ROWS) {
  // PGlite takes seconds to start on a busy machine: one database for the file, a fresh schema per test.
  let shared: Promise<PGlite> | undefined
  const sharedPglite = (): Promise<PGlite> => (shared ??= pgliteFromTemplate())
  afterAll(async () => {
    await (await shared)?.close()
  }, 60_000)
  describeStoreContract('pgliteStore', async (options) => pgliteStore({ ...options, db: await sharedPglite(), schema: freshSchema('contract') }), { timeout: 60_000 })

  requirePostgresInCi()
  if (POSTGRES_URL) {
    const connectionString = POSTGRES_URL
    describeStoreContract('postgresStore', (options) => postgresStore({ ...options, connectionString, schema: freshSchema('contract'), max: 8 }))
  } else {
    describe('ConversationStore contract: postgresStore', () => {
      it.skip(`skipped: ${POSTGRES_SKIP_REASON}`, () => undefined)
    })
  }
}

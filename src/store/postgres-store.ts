import type { Pool } from 'pg'
import { configIssue, ChatrailConfigError } from '../conversation/config-error.js'
import type { ConversationStore, StoreOptions } from './conversation-store.js'
import { sqlStore } from './sql/sql-store.js'
import { postgresDriver } from './sql/postgres-driver.js'
import { missingPeer, schemaOf } from './store-config.js'

interface PostgresCommon extends StoreOptions {
  /** The Postgres schema for chatrail's tables (created if missing). Default `public`. */
  schema?: string
}

export type PostgresStoreOptions =
  | (PostgresCommon & { connectionString: string; pool?: undefined; /** Pool size. Default 10. */ max?: number })
  | (PostgresCommon & { pool: Pool; connectionString?: undefined })

/**
 * `postgresStore({ connectionString } | { pool })`: the store for many instances on one database.
 * The schema is migrated on first use under an advisory lock (instances starting together are
 * safe). With `connectionString` the store owns its pool (and closes it); a `pool` you pass stays
 * yours, and so does its `error` listener. `pg` is an optional peer dependency, loaded on first use.
 */
export function postgresStore(options: PostgresStoreOptions): ConversationStore {
  const hasPool = options?.pool !== undefined
  const hasUrl = typeof options?.connectionString === 'string' && options.connectionString !== ''
  if (hasPool === hasUrl) {
    throw new ChatrailConfigError([
      configIssue(
        'invalid_postgres_options',
        ['postgresStore'],
        hasPool ? 'postgresStore: pass either pool or connectionString, not both.' : 'postgresStore: a connectionString or a pg Pool is required.',
        'e.g. postgresStore({ connectionString: process.env.DATABASE_URL }) or postgresStore({ pool }).',
      ),
    ])
  }
  const schema = schemaOf('postgresStore', options.schema)
  return sqlStore({
    ...options,
    kind: 'postgres',
    schema,
    async driver() {
      if (options.pool) return postgresDriver(options.pool, false)
      let PoolClass: typeof Pool
      try {
        // pg is CommonJS: under ESM its exports arrive on `default`.
        const pg = await import('pg')
        PoolClass = (pg.default ?? pg).Pool
      } catch (error) {
        throw missingPeer('postgresStore', 'pg', error)
      }
      const pool = new PoolClass({ connectionString: options.connectionString, max: options.max ?? 10, connectionTimeoutMillis: 10_000 })
      // An idle client whose server went away emits `error` on the pool; unhandled, that would end
      // the process. The next query reports the outage as StoreUnavailableError instead.
      pool.on('error', () => undefined)
      return postgresDriver(pool, true)
    },
  })
}

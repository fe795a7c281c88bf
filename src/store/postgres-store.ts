import type { Client, ClientConfig, Pool } from 'pg'
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
 * `subscribe` keeps one more connection, outside the pool: a `LISTEN` for the stop signals and
 * stream parts other instances write (reconnected with backoff; readers poll while it is down).
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
      let pg: { Client: typeof Client; Pool: typeof Pool }
      try {
        // pg is CommonJS: under ESM its exports arrive on `default`.
        const loaded = await import('pg')
        pg = loaded.default ?? loaded
      } catch (error) {
        // a pool you pass works without the package resolving here; only its LISTEN needs it
        if (options.pool) return postgresDriver(options.pool, false)
        throw missingPeer('postgresStore', 'pg', error)
      }
      // The LISTEN connection (store-notifications.ts) is a client of its own, configured as the
      // pool's connections are; named, so it can be told apart in pg_stat_activity.
      const config: ClientConfig = options.pool ? options.pool.options : { connectionString: options.connectionString, connectionTimeoutMillis: 10_000 }
      const listenClient = async (): Promise<Client> => new pg.Client({
        ...config,
        application_name: config.application_name ?? `chatrail listen ${schema}`,
        // a connection that only listens sends nothing: keepalives find a peer that vanished
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      })
      if (options.pool) return postgresDriver(options.pool, false, listenClient)
      const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10, connectionTimeoutMillis: 10_000 })
      // An idle client whose server went away emits `error` on the pool; unhandled, that would end
      // the process. The next query reports the outage as StoreUnavailableError instead.
      pool.on('error', () => undefined)
      return postgresDriver(pool, true, listenClient)
    },
  })
}

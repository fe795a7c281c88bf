import type { Client, Pool, PoolClient, QueryResult } from 'pg'
import { postgresListener } from './postgres-listener.js'
import type { SqlDriver, SqlRow } from './sql-driver.js'

/**
 * A `pg` pool as a `SqlDriver`. Text without parameters goes through the simple protocol, which
 * runs several statements (migrations) and answers with one result per statement. `listenClient`
 * makes the connection `listen` keeps (postgres-listener.ts), outside the pool.
 */
export function postgresDriver(pool: Pool, owned: boolean, listenClient?: () => Promise<Client>): SqlDriver {
  const run = async (q: Pool | PoolClient, sql: string, params?: readonly unknown[]): Promise<SqlRow[]> => {
    const result = (params === undefined ? await q.query(sql) : await q.query(sql, params as unknown[])) as QueryResult<SqlRow> | QueryResult<SqlRow>[]
    return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows)
  }
  return {
    query: (sql, params) => run(pool, sql, params),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work((sql, params) => run(client, sql, params))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    ...(listenClient ? {
      async listen(channel, { onNotify, onListening }) {
        const listener = postgresListener({ newClient: listenClient, channel, onNotify, onListening })
        return listener.stop
      },
    } : {}),
    async close() {
      if (owned) await pool.end()
    },
  }
}

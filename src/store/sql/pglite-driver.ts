import type { PGlite } from '@electric-sql/pglite'
import type { SqlDriver, SqlRow } from './sql-driver.js'

/**
 * PGlite as a `SqlDriver`. PGlite runs one query at a time on its one connection, so its own
 * queue serialises the store's statements; `exec` runs multi-statement text (migrations), which
 * the extended protocol behind `query` refuses. `release` (the data directory's lock) runs after
 * the database is closed.
 */
export function pgliteDriver(db: PGlite, owned: boolean, release?: () => Promise<void>): SqlDriver {
  const run = async (q: Pick<PGlite, 'query' | 'exec'>, sql: string, params?: readonly unknown[]): Promise<SqlRow[]> => {
    if (params === undefined) {
      const results = await q.exec(sql)
      return (results.at(-1)?.rows ?? []) as SqlRow[]
    }
    return (await q.query<SqlRow>(sql, params as unknown[])).rows
  }
  return {
    query: (sql, params) => run(db, sql, params),
    transaction: (work) => db.transaction((tx) => work((sql, params) => run(tx, sql, params))),
    async close() {
      try {
        if (owned && !db.closed) await db.close()
      } finally {
        // the directory's lock goes only once the database is closed: the next opener sees it flushed
        await release?.()
      }
    },
  }
}

import type { PGlite } from '@electric-sql/pglite'
import type { SqlDriver, SqlRow } from './sql-driver.js'

/**
 * PGlite as a `SqlDriver`. PGlite runs one query at a time on its one connection, so its own
 * queue serialises the store's statements (and it is one process, so `listen` is in-process); `exec` runs multi-statement text (migrations), which
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
    // PGlite delivers a committed statement's notifications in-process, to every store on this db
    async listen(channel, { onNotify, onListening }) {
      const unlisten = await db.listen(channel, onNotify)
      onListening()
      return async () => {
        if (!db.closed) await unlisten()
      }
    },
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

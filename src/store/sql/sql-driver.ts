/**
 * What the SQL store needs from a database: one query at a time, and a transaction for migrations.
 * `pglite-driver.ts` and `postgres-driver.ts` adapt PGlite and `pg`; rows come back as plain
 * objects whose integer columns may be numbers (PGlite) or strings (`pg` bigint): callers `Number()` them.
 */
export type SqlRow = Record<string, unknown>

export interface SqlDriver {
  query: (sql: string, params?: readonly unknown[]) => Promise<SqlRow[]>
  /** Runs `work` in one transaction on one connection; rolls back when it throws. */
  transaction: <T>(work: (query: SqlDriver['query']) => Promise<T>) => Promise<T>
  /**
   * Calls `onNotify` with the payload of every notification on `channel` committed from now on (by
   * any connection), and `onListening` each time listening (re)starts, since notifications sent
   * while it was not listening are lost. Resolves to the stop. Optional: a driver without it wakes
   * nobody, and readers poll.
   */
  listen?: (channel: string, handlers: { readonly onNotify: (payload: string) => void; readonly onListening: () => void }) => Promise<() => Promise<void>>
  close: () => Promise<void>
}

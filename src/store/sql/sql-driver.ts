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
  close: () => Promise<void>
}

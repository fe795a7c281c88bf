import { MIGRATIONS } from './schema.js'
import type { SqlDriver } from './sql-driver.js'

/**
 * Brings a schema up to the newest migration. Runs in one transaction holding a transaction-level
 * advisory lock keyed by the schema name, so instances that start at once queue here and each
 * migration is applied exactly once; the lock is released by the commit (or the rollback when a
 * migration fails, which leaves the schema at the previous version).
 */
export async function migrate(driver: SqlDriver, schema: string): Promise<number> {
  return driver.transaction(async (query) => {
    await query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`chatrail.store:${schema}`])
    await query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    await query(`CREATE TABLE IF NOT EXISTS ${schema}.chatrail_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`)
    const [row] = await query(`SELECT coalesce(max(version), 0)::integer AS v FROM ${schema}.chatrail_migrations`)
    const current = Number(row?.v ?? 0)
    let applied = 0
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue
      await query(migration.sql(schema))
      await query(`INSERT INTO ${schema}.chatrail_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name])
      applied += 1
    }
    return applied
  })
}

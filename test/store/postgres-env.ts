import { randomUUID } from 'node:crypto'

/**
 * The Postgres the tests use: `CHATRAIL_TEST_POSTGRES_URL` (`.ci/postgres.sh` starts a throwaway
 * cluster and exports it). Outside CI a missing URL skips these tests with the reason below; under
 * `CI` it is a failure, so CI can never pass without having run them.
 */
export const POSTGRES_URL = process.env.CHATRAIL_TEST_POSTGRES_URL
export const POSTGRES_SKIP_REASON = 'CHATRAIL_TEST_POSTGRES_URL is not set: run `source .ci/postgres.sh && chatrail_postgres_start` to start a throwaway Postgres 15 (see docs/persistence.md)'

export function requirePostgresInCi(): void {
  if (!POSTGRES_URL && process.env.CI && process.env.CI !== 'false') throw new Error(`CI is set but ${POSTGRES_SKIP_REASON}. .ci/run must start Postgres before the tests.`)
}

/** A schema name no other test uses (tests share one database). */
export const freshSchema = (prefix = 't'): string => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`

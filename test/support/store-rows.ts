/**
 * Whether the suites that run on every store run their database rows (PGlite, Postgres) or the
 * memory store's alone. `npm run test:unit` sets CHATRAIL_TEST_STORES=memory: the inner loop opens
 * no database (issue 27), while `npm test` and CI leave it unset and run every row.
 */
function readStoreRows(value: string | undefined): 'all' | 'memory' {
  if (value === undefined || value === '' || value === 'all') return 'all'
  if (value === 'memory') return 'memory'
  throw new Error(`CHATRAIL_TEST_STORES=${value} is not a choice: use 'memory' (the memory store's rows only) or 'all' (the default)`)
}

export const DATABASE_ROWS = readStoreRows(process.env.CHATRAIL_TEST_STORES) === 'all'

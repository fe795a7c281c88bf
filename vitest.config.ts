import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'examples/**/*.test.ts', 'examples/**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Type-level tests (*.test-d.ts) are compiled by `npm run typecheck` (tsc covers test/), which fails on
    // any broken expectTypeOf; running vitest's own typecheck pass as well only doubled the time.
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})

import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'examples/**/*.test.ts', 'examples/**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
})

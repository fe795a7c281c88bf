import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    controller: 'src/controller/index.ts',
    store: 'src/store/index.ts',
    server: 'src/server/index.ts',
    testing: 'src/testing/index.ts',
    'testing-vitest': 'src/testing/vitest.ts',
    'claude-code': 'src/agents/claude-code/index.ts',
    codex: 'src/agents/codex/index.ts',
    opencode: 'src/agents/opencode/index.ts',
    monitor: 'src/agents/monitor/index.ts',
    react: 'renderers/react/index.ts',
    ink: 'renderers/ink/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  external: ['react', 'react-dom', 'ink', 'vitest', 'react/jsx-runtime', 'pg', '@electric-sql/pglite', 'better-sqlite3', 'markdown-to-jsx'],
})

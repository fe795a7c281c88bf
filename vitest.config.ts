import { defineConfig } from 'vitest/config'

/**
 * The suites that need something beyond Node: the real agent CLIs (test/agents-e2e), Chromium, a
 * pseudo-terminal, a real Postgres, or a build of the whole package. `npm test` runs them all;
 * `npm run test:unit` (the `unit` projects) leaves them out for the inner loop, with the `integration` suites
 * below and the database rows of the suites that run on every store (CHATRAIL_TEST_STORES=memory).
 */
export const endToEndSuites = [
  // the real Claude Code, Codex and OpenCode CLIs
  'test/agents/adapters/claude-code/**',
  'test/agents/adapters/codex/**',
  'test/agents/adapters/opencode/**',
  'test/agents/claude-code/live-cli.test.ts',
  'test/agents/monitor/live-claude.test.ts',
  'test/agents/**/*-live.test.ts',
  'test/agents/opencode/opencode-probe.test.ts',
  'test/agents/claude-code/recorded-fixtures.test.ts',
  'test/ink/demo-claude.test.ts',
  'examples/coding-agent-router/router.test.ts',
  // Chromium
  '**/*browser*.test.ts',
  'test/serve/serve-command.test.ts',
  // pseudo-terminals
  '**/*-pty*.test.ts',
  // real Postgres, many processes, crashes, signals
  'test/server/many-instances.test.ts',
  'test/server/resume-latency.test.ts',
  'test/server/confirmations-postgres.test.ts',
  'test/server/approval-continuation-postgres.test.ts',
  'test/server/signal-latency.test.ts',
  'test/store/postgres-wakes.test.ts',
  'test/store/crash.test.ts',
  'test/store/directory-lock.test.ts',
  'test/store/pglite-template-race.test.ts',
  'test/serve/serve-store-open.test.ts',
  'test/serve/serve-signals.test.ts',
  'test/serve/serve-operations.test.ts',
  'test/serve/favicon.test.ts',
  'test/serve/serve-confirmations.test.ts',
  'test/serve/serve-agent-permissions.test.ts',
  // the built package
  'test/package/**',
  'test/docs/doc-snippets.test.ts',
  'test/testing/matcher-types-order.test.ts',
]

/**
 * Suites that need no agent CLI, browser or Postgres but open an embedded database directory or start
 * processes of their own (the CLI as a child, the `.zst` bomb under a capped heap, the demo on a pty,
 * PGlite's initdb): the `integration` project, run by `npm test` and not by `npm run test:unit`, whose
 * inner loop is the pure suites (issue 27: no real CLIs, browsers or databases there). Each file
 * here cost at least a second of CPU in the unit loop (CHATRAIL_TEST_CPU_REPORT).
 */
export const integrationSuites = [
  // embedded databases: PGlite directories, migrations, the store model on PGlite
  'test/store/pglite-data-dir.test.ts',
  'test/store/pglite-template.test.ts',
  'test/store/model.test.ts',
  'test/store/migration.test.ts',
  'test/store/turn-parts-migration.test.ts',
  'test/store/sql-faults.test.ts',
  'test/devtools/export-command.test.ts',
  'test/devtools/done-when.test.ts',
  'examples/server-support/server.test.ts',
  'examples/persistent-chat/server.test.ts',
  // child processes: the chatrail CLI, a capped-heap reader, the demo on a pseudo-terminal
  'test/agents/runstate/zst-window.test.ts',
  // a 160 MB transcript written to disk and read with the heap measured around it
  'test/agents/claude-code/big-transcript.test.ts',
  'test/testing/test-command.test.ts',
  'test/testing/trace-snapshot-failure.test.ts',
  'test/testing/adapter-contract-detects.test.ts',
  'test/cli/main.test.ts',
  'test/cli/inspect.test.ts',
  'test/cli/explain-forms.test.ts',
  'test/tools/cli.test.ts',
  'test/ink/demo-screen.test.ts',
  'test/conversation/route-timeout-process.test.ts',
  'test/agents/monitor/unreadable-folder.test.ts',
  'test/serve/token-file.test.ts',
]

/**
 * Unit suites that need a fresh module graph of their own: they mock modules (vi.mock) or watch a
 * lazily loaded chunk load for the first time, which a graph shared with other files has already
 * done (dialog-ui-lazy failed that way in the shared project).
 */
export const isolatedUnitSuites = [
  'test/react/dialog-ui-lazy.test.tsx',
  'test/react/dialog-ui-prefetch.test.tsx',
  'test/react/dialog-ui-failure.test.tsx',
  'test/react/message-ui-lazy.test.tsx',
  'test/react/code-highlight.test.tsx',
  'test/react/entry-isolation.test.ts',
  // the first load of a controller's turn code fails (vi.mock of src/controller/model-turn.ts)
  'test/controller/model-turn-failure.test.ts',
  'test/contract/random-uuid.test.ts',
  'test/conversation/definition.test.ts',
  // mocks @opentelemetry/api as not installed
  'test/server/telemetry-absent.test.ts',
  // Time ratios of the SSE parser over 200,000 short lines: in the shared graph's large heap a
  // collection landed in the long runs and not the short ones (60× measured for a linear scan)
  'test/agents/opencode/sse-parser-bounds.test.ts',
  'test/agents/opencode/sse-parser-optimized.test.ts',
  // Passes alone and with test/conversation, test/controller and test/contract in one worker, but
  // read a route output's getter twice once in the full shared graph (2026-12-02, not yet traced:
  // some file leaves global state behind); isolated until it is found.
  'test/conversation/route-output-read-once.test.ts',
]

const workers = Number(process.env.CHATRAIL_TEST_WORKERS ?? '')

const shared = {
  // Type-level tests (*.test-d.ts) are compiled by `npm run typecheck` (tsc covers test/), which fails on
  // any broken expectTypeOf; running vitest's own typecheck pass as well only doubled the time.
  testTimeout: 20_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // CHATRAIL_TEST_CPU_REPORT=<file>: one line per test file with its wall and CPU seconds
  // (test/support/cpu-report.ts; `npx tsx scripts/cpu-report.ts <file>` sums them).
  setupFiles: process.env.CHATRAIL_TEST_CPU_REPORT ? ['test/support/cpu-report.ts'] : [],
} as const
const everything = ['test/**/*.test.ts', 'test/**/*.test.tsx', 'examples/**/*.test.ts', 'examples/**/*.test.tsx']
const ignored = ['**/node_modules/**', '**/dist/**']

export default defineConfig({
  test: {
    // vitest's default is one worker per core less one: a single worker on a 2-core machine, which ran
    // the suite file by file although most of its time is spent waiting on child processes, servers
    // and timers. Three keep both cores busy (CHATRAIL_TEST_WORKERS overrides).
    maxWorkers: Number.isInteger(workers) && workers > 0 ? workers : 3,
    benchmark: { include: ['bench/**/*.bench.ts'] },
    projects: [
      {
        // `npm run test:unit` runs this project alone. Its files share a worker's module graph
        // (isolate: false): importing chatrail's sources once per worker instead of once per file
        // took a third of the suite's CPU time. A file that leaves global state behind fails here.
        test: { ...shared, name: 'unit', include: everything, exclude: [...ignored, ...endToEndSuites, ...isolatedUnitSuites, ...integrationSuites], isolate: false },
      },
      // Shares a module graph per worker as `unit` does; `npm test` and the clock-ahead rerun run it.
      { test: { ...shared, name: 'integration', include: integrationSuites, exclude: ignored, isolate: false } },
      { test: { ...shared, name: 'unit-isolated', include: isolatedUnitSuites, exclude: ignored } },
      {
        // A fresh module graph per file, and the agent CLIs installed before the first (test/agents-e2e).
        test: { ...shared, name: 'e2e', include: endToEndSuites.filter((glob) => glob.endsWith('.ts') || glob.endsWith('**')).map((glob) => (glob.endsWith('**') ? `${glob}/*.test.ts` : glob)), exclude: ignored, globalSetup: ['test/support/global-setup.ts'] },
      },
    ],
  },
})

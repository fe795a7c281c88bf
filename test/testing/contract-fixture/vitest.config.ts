import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// Config for the child vitest run in test/testing/adapter-contract-detects.test.ts only.
export default defineConfig({
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  test: { include: ['test/testing/contract-fixture/broken-adapters.contract.ts'], pool: 'forks', typecheck: { enabled: false } },
})

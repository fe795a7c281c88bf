import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Runs runAdapterContract against deliberately broken adapters in a child vitest (≈5–10 s) and
// checks that every breakage is caught by the invariant it violates, and by no unrelated one.
const root = fileURLToPath(new URL('../../', import.meta.url))

interface JsonReport {
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>
}

describe('runAdapterContract detects broken adapters', () => {
  it('fails exactly the violated invariants', () => {
    const child = spawnSync(
      `${root}node_modules/.bin/vitest`,
      ['run', '--config', 'test/testing/contract-fixture/vitest.config.ts', '--reporter=json'],
      { cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, FORCE_COLOR: '0' } },
    )
    const report = JSON.parse(child.stdout.slice(child.stdout.indexOf('{'))) as JsonReport
    const failed = new Map<string, string[]>()
    for (const result of report.testResults.flatMap((file) => file.assertionResults)) {
      const [, adapter, invariant] = /^adapter contract: (.+?) (A\d+) /.exec(result.fullName) ?? []
      if (!adapter || !invariant || result.status !== 'failed') continue
      failed.set(adapter, [...new Set([...(failed.get(adapter) ?? []), invariant])].sort())
    }
    expect(Object.fromEntries(failed)).toEqual({
      eager: ['A1'],
      'two-terminals': ['A10', 'A3'],
      'abort-throws': ['A1', 'A6'],
      mutates: ['A7'],
      'ignores-abort': ['A6'],
      'bad-chunk': ['A4'],
      'partial-args': ['A5'],
      throws: ['A9'],
      'failure without metadata.error': ['A9'],
    })
  }, 150_000)
})

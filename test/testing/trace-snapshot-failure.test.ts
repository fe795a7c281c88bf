import { execFile } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * toMatchTraceSnapshot failing on purpose: a snapshot failure cannot be caught inside the run that
 * records it, so a second vitest runs a fixture whose committed snapshot is wrong (route "help"
 * where the run routes to "start") and must fail with the difference.
 */

function fixtureRun(): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' }
  // The child is a vitest of its own, not a worker of this one.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST') delete env[key]
  return new Promise((done) => {
    execFile(resolve('node_modules/.bin/vitest'), ['run', '--config', 'test/testing/fixtures/snapshot-mismatch/vitest.config.mjs'], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}\n${stderr}` })
    })
  })
}

describe('toMatchTraceSnapshot against a wrong snapshot', () => {
  it('fails the test and shows the scrubbed trace difference', async () => {
    const { code, output } = await fixtureRun()
    expect(code).toBe(1)
    expect(output).toContain('Snapshot `trace snapshot mismatch 1` mismatched')
    expect(output).toMatch(/- {7}routeId: help\n\+ {7}routeId: start/)
    expect(output).toContain('Snapshots  1 failed')
  }, 150_000)
})

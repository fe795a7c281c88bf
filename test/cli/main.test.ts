import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const chatrail = (...args: string[]) =>
  spawnSync(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 })

describe('chatrail command dispatcher', () => {
  it('--help prints the usage with every command to stdout and exits 0', () => {
    const result = chatrail('--help')
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^usage: chatrail <command>/)
    expect(result.stdout).toMatch(/\n {2}demo {2,}a terminal conversation/)
  }, 30_000)

  it('an unknown or missing command prints the usage to stderr and exits 2', () => {
    const unknown = chatrail('frobnicate')
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown command "frobnicate"\n')
    expect(unknown.stderr).not.toContain('did you mean')
    expect(unknown.stderr).toContain('usage: chatrail <command>')
    const missing = chatrail()
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('no command given')
  }, 30_000)

  it('a mistyped command gets a "did you mean", and nothing runs', () => {
    const typo = chatrail('tset')
    expect(typo.status).toBe(2)
    expect(typo.stderr).toContain('chatrail: unknown command "tset" (did you mean "test"?)')
    expect(typo.stderr).toContain('usage: chatrail <command>')
    expect(chatrail('sesions').stderr).toContain('(did you mean "sessions"?)')
    expect(chatrail('insp').stderr).toContain('(did you mean "inspect"?)')
  }, 30_000)

  it('passes the remaining arguments to the command (demo --help)', () => {
    const result = chatrail('demo', '--help')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('usage: chatrail demo')
  }, 30_000)
})

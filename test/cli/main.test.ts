import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * The `chatrail` dispatcher and what every command shares (help, version, usage errors), run as the
 * real CLI: built once with esbuild and started with plain node (test/support/cli-bundle.ts), and
 * the source entry through tsx where it matters (its usage and its version).
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const cli = await cliBundle()
const chatrail = (...args: string[]) =>
  spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 })
const chatrailFromSource = (...args: string[]) =>
  spawnSync(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 })
const version = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version

/** The commands this suite owns; each must answer --help with an example and a typo with one line. */
const ownCommands = ['demo', 'inspect', 'test', 'sessions'] as const

describe('chatrail command dispatcher', () => {
  it('--help prints the usage with every command, its options and examples to stdout and exits 0', () => {
    const result = chatrail('--help')
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/^usage: chatrail <command>/)
    expect(result.stdout).toMatch(/\n {2}demo {2,}a terminal conversation/)
    expect(result.stdout).toContain('-v, --version')
    expect(result.stdout).toMatch(/\nexamples:\n {2}chatrail /)
    const fromSource = chatrailFromSource('--help')
    expect(fromSource.status).toBe(0)
    expect(fromSource.stdout).toBe(result.stdout)
  }, 30_000)

  it('--version and -v print the version in package.json', () => {
    for (const result of [chatrail('--version'), chatrail('-v'), chatrailFromSource('--version')]) {
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      expect(result.stdout).toBe(`${version}\n`)
    }
  }, 30_000)

  it('`help <command>` prints that command\'s help and exits 0; help for something that is not a command exits 2 with a guess', () => {
    const help = chatrail('help', 'test')
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/^usage: chatrail test /)
    expect(help.stdout).toContain('--replay-check')
    const typo = chatrail('help', 'tset')
    expect(typo.status).toBe(2)
    expect(typo.stdout).toBe('')
    expect(typo.stderr).toContain('no help for "tset": not a command (did you mean "test"?)')
  }, 30_000)

  it('an unknown command is one error line and a pointer to --help on stderr, exit 2; no command prints the usage', () => {
    const unknown = chatrail('frobnicate')
    expect(unknown.status).toBe(2)
    expect(unknown.stdout).toBe('')
    expect(unknown.stderr).toBe('chatrail: unknown command "frobnicate"\nRun "chatrail --help" for usage.\n')
    const missing = chatrail()
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('no command given')
    expect(missing.stderr).toContain('usage: chatrail <command>')
  }, 30_000)

  it('a mistyped command or option gets a "did you mean", and nothing runs', () => {
    const typo = chatrail('tset')
    expect(typo.status).toBe(2)
    expect(typo.stderr).toBe('chatrail: unknown command "tset" (did you mean "test"?)\nRun "chatrail --help" for usage.\n')
    expect(chatrail('sesions').stderr).toContain('(did you mean "sessions"?)')
    expect(chatrail('insp').stderr).toContain('(did you mean "inspect"?)')
    const option = chatrail('--verison')
    expect(option.status).toBe(2)
    expect(option.stderr).toBe('chatrail: unknown option "--verison" (did you mean "--version"?)\nRun "chatrail --help" for usage.\n')
  }, 30_000)

  it.each(ownCommands)('chatrail %s --help exits 0 with its usage and at least one example', (name) => {
    const result = chatrail(name, '--help')
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`usage: chatrail ${name}`)
    expect(result.stdout).toMatch(new RegExp(`\\n[Ee]xamples:\\n {2}(\\S+=\\S+ )?(chatrail ${name}|npm start)\\b`))
  }, 30_000)

  it.each([
    ['sessions', '--jsno', '--json'],
    ['inspect', '--lats', '--last'],
    ['test', '--coverag', '--coverage'],
    ['demo', '--agnet', '--agent'],
  ])('chatrail %s %s: one line naming the option with a "did you mean", a pointer to --help, exit 2', (name, typo, meant) => {
    const result = chatrail(name, typo)
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`chatrail ${name}: unknown option "${typo}" (did you mean "${meant}"?)\nRun "chatrail ${name} --help" for usage.\n`)
  }, 30_000)

  it('a flag missing its value or given one it does not take says so in one line', () => {
    const missing = chatrail('sessions', '--home')
    expect(missing.status).toBe(2)
    expect(missing.stderr).toBe('chatrail sessions: --home needs a value\nRun "chatrail sessions --help" for usage.\n')
    const extra = chatrail('sessions', '--json=yes')
    expect(extra.stderr).toBe('chatrail sessions: --json takes no value\nRun "chatrail sessions --help" for usage.\n')
    const positional = chatrail('sessions', 'extra')
    expect(positional.stderr).toBe('chatrail sessions: unexpected argument "extra" (this command takes options only)\nRun "chatrail sessions --help" for usage.\n')
  }, 30_000)
})

import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeFakeHome, placeClaude, placeCodex, writeRegistry } from '../agents/monitor/fake-home.js'
import type { FakeHome } from '../agents/monitor/fake-home.js'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * `chatrail sessions` run as the real CLI over a fake home of recorded sessions, shifted to "a few
 * minutes ago" so the table reads the same on any date: the title column, what is awaited apart
 * from what failed, the table fitted to the terminal's width, and a home that does not exist.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const { CODEX_HOME: _codexHome, COLUMNS: _columns, ...parentEnv } = process.env
// the CLI built once and started with plain node (test/support/cli-bundle.ts): a tsx start per case cost 1–2 s
const cli = await cliBundle()
const sessions = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [cli, 'sessions', '--no-opencode-url', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000, env: { ...parentEnv, ...env } })

let home: FakeHome
beforeAll(() => {
  home = makeFakeHome()
  const waiting = placeClaude(home, 'permission-pending', { endsAgoMs: 60_000 })
  writeRegistry(home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
  placeCodex(home, 'api-error-400', { endsAgoMs: 90_000 })
  placeCodex(home, 'plain-turn', { endsAgoMs: 180_000 })
  placeCodex(home, 'mid-turn', { endsAgoMs: 120_000 })
})
afterAll(() => home.cleanup())

describe('chatrail sessions', () => {
  it('shows each session\'s title; WAITING FOR holds only what is awaited, a failure\'s error is under DETAIL', () => {
    const result = sessions(['--home', home.home])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^AGENT\s+PROJECT\s+TITLE\s+STATE\s+WAITING FOR\s+DETAIL\s+ACTIVE$/)
    const column = (title: string) => lines[0]?.indexOf(title) ?? -1
    const cell = (line: string | undefined, from: string, to: string) => (line ?? '').slice(column(from), column(to)).trim()
    const waiting = lines.find((line) => line.startsWith('claude'))
    const failed = lines.find((line) => / failed /.test(line))
    const running = lines.find((line) => / running /.test(line))
    expect(cell(waiting, 'TITLE', 'STATE')).toBe('Create a file')
    expect(cell(waiting, 'WAITING FOR', 'DETAIL')).toBe('permission prompt (Bash)')
    expect(cell(failed, 'TITLE', 'STATE')).toBe('Say hello.')
    expect(cell(failed, 'WAITING FOR', 'DETAIL')).toBe('')
    expect(cell(failed, 'DETAIL', 'ACTIVE')).toBe('The scripted model refuses.')
    expect(cell(running, 'TITLE', 'STATE')).toBe('Wait two seconds, then tell me.')
    expect(cell(running, 'WAITING FOR', 'ACTIVE')).toBe('')
  }, 60_000)

  it.each([60, 100])('fits %i columns: no line longer, cut cells end in …, every row and its age still there', (width) => {
    const result = sessions(['--home', home.home], { COLUMNS: String(width) })
    expect(result.status).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(5)
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width)
    expect(lines.join('\n')).toContain('…')
    expect(lines[0]).toMatch(/^AGENT\s+PROJECT\s+TITLE\s+STATE\s+WAIT\S*( FOR)?\s+DETAIL\s+ACTIVE$/)
    for (const line of lines.slice(1)) expect(line).toMatch(/^(claude|codex)\s.*\s\dm ago$/)
    expect(lines.find((line) => / failed /.test(line))).toMatch(/ The s[^…]*…\s+\dm ago$/)
  }, 60_000)

  it('without a width (piped, no $COLUMNS) nothing is cut', () => {
    const result = sessions(['--home', home.home])
    expect(result.stdout).not.toContain('…')
    expect(result.stdout).toContain('Wait two seconds, then tell me.')
  }, 60_000)

  it('a --home or --codex-home that does not exist is an error naming the path, exit 2', () => {
    const missing = join(home.home, 'no-such-home')
    const result = sessions(['--home', missing])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(`chatrail sessions: --home does not exist: ${missing}\nRun "chatrail sessions --help" for usage.\n`)
    const codex = sessions(['--home', home.home, '--codex-home', join(home.home, 'nope')])
    expect(codex.status).toBe(2)
    expect(codex.stderr).toContain(`--codex-home does not exist: ${join(home.home, 'nope')}`)
  }, 60_000)
})

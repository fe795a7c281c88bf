import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { makeFakeHome, placeClaude, placeCodex, writeRegistry } from './fake-home.js'
import type { FakeHome, PlacedSession } from './fake-home.js'
import { cliBundle } from '../../support/cli-bundle.js'

/**
 * `chatrail sessions` spawned (the CLI built once and started with plain node, as the bin runs dist:
 * test/support/cli-bundle.ts) against a fake home whose recorded
 * sessions are shifted to "a few minutes ago", so the test reads the same whatever today is.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const { CODEX_HOME: _ignored, ...parentEnv } = process.env
const cli = await cliBundle()
const chatrail = (...args: string[]) => spawnSync(process.execPath, [cli, 'sessions', '--no-opencode-url', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000, env: parentEnv })

let home: FakeHome
let waiting: PlacedSession
let running: PlacedSession
let done: PlacedSession
let old: PlacedSession

beforeAll(() => {
  home = makeFakeHome()
  waiting = placeClaude(home, 'permission-pending', { endsAgoMs: 60_000 })
  writeRegistry(home, { pid: process.pid, sessionId: waiting.sessionId, cwd: waiting.cwd, status: 'waiting', waitingFor: 'permission prompt' })
  running = placeCodex(home, 'mid-turn', { endsAgoMs: 120_000 })
  done = placeCodex(home, 'plain-turn', { endsAgoMs: 180_000 })
  old = placeCodex(home, 'tool-run', { endsAgoMs: 3 * 86_400_000 })
})
afterAll(() => home.cleanup())

describe('chatrail sessions', () => {
  it('--json prints { entries, warnings }: the entries, the one that needs you first; sessions ended days ago only with --all', () => {
    const result = chatrail('--json', '--home', home.home)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const { entries, warnings } = JSON.parse(result.stdout) as { entries: MonitorEntry[]; warnings: string[] }
    expect(warnings).toEqual([])
    expect(entries.map((entry) => entry.key)).toEqual([waiting.key, done.key, running.key])
    expect(entries[0]).toMatchObject({ agent: 'claude-code', state: 'needs_input', status: 'waiting_for_approval', detail: 'permission prompt (Bash)', pid: process.pid, cwd: waiting.cwd })
    expect(entries[1]).toMatchObject({ agent: 'codex', status: 'completed', endedBy: 'turn', title: 'Say hello.' })
    expect(entries[2]).toMatchObject({ agent: 'codex', state: 'working', status: 'running' })

    const all = (JSON.parse(chatrail('--json', '--all', '--home', home.home).stdout) as { entries: MonitorEntry[] }).entries
    // Finished sessions sort before active ones, the most recent first.
    expect(all.map((entry) => entry.key)).toEqual([waiting.key, done.key, old.key, running.key])
    expect(all[2]).toMatchObject({ state: 'ended', status: 'completed', endedBy: 'turn' })
  }, 60_000)

  it('prints a table: agent, project, title, state, what it waits for, last activity; attention first', () => {
    const result = chatrail('--home', home.home)
    expect(result.status).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^AGENT\s+PROJECT\s+TITLE\s+STATE\s+WAITING FOR\s+ACTIVE$/)
    expect(lines[1]).toMatch(/^claude\s+proj\s+Create a file\s+waiting for approval\s+permission prompt \(Bash\)\s+1m ago$/)
    expect(lines[2]).toMatch(/^codex\s+\S+\s+Say hello\.\s+completed\s+3m ago$/)
    expect(lines[3]).toMatch(/^codex\s+\S+\s+Wait two seconds, then tell me\.\s+running\s+2m ago$/)
    expect(lines[4]).toBe('(1 session that ended more than a day ago is hidden; --all shows them)')
    expect(lines).toHaveLength(5)
  }, 60_000)

  it('an empty home says so; --help exits 0; a bad flag exits 2 with one line and a pointer to --help', () => {
    const empty = makeFakeHome()
    try {
      const result = chatrail('--home', empty.home)
      expect(result.status).toBe(0)
      expect(result.stdout).toContain('No Claude Code or Codex sessions under')
    } finally {
      empty.cleanup()
    }
    const help = chatrail('--help')
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('usage: chatrail sessions')
    const bad = chatrail('--frobnicate')
    expect(bad.status).toBe(2)
    expect(bad.stderr).toBe('chatrail sessions: unknown option "--frobnicate"\nRun "chatrail sessions --help" for usage.\n')
  }, 60_000)
})

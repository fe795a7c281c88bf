import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, renameSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { otherUser } from '../../support/other-user.js'
import { makeFakeHome, placeClaude, placeCodex } from './fake-home.js'
import type { FakeHome, PlacedSession } from './fake-home.js'

/**
 * Issue 15 item 3: one folder the user cannot read (mode 000) hid every session of that agent, and
 * `chatrail sessions` printed nothing and exited 0. Root reads mode-000 folders, so the command
 * runs as a second, unprivileged user (test/support/other-user.ts) who owns the fake home.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))
const other = otherUser()

let home: FakeHome
let visibleCodex: PlacedSession
let visibleClaude: PlacedSession
let lockedDay: string
let lockedProject: string

/** Moves a placed session's file into `dir` (created), keeping its name. */
function moveInto(session: PlacedSession, dir: string): void {
  mkdirSync(dir, { recursive: true })
  renameSync(session.path, join(dir, basename(session.path)))
}

beforeAll(() => {
  if (!other.ok) return
  home = makeFakeHome()
  visibleCodex = placeCodex(home, 'plain-turn', { endsAgoMs: 60_000, sessionId: '019a0000-0000-7000-8000-0000000000a1' })
  moveInto(visibleCodex, join(home.codexHome, 'sessions', '2026', '11', '29'))
  placeCodex(home, 'plain-turn', { endsAgoMs: 60_000, sessionId: '019a0000-0000-7000-8000-0000000000b2' })
  lockedDay = join(home.codexHome, 'sessions', '2026', '11', '30')
  visibleClaude = placeClaude(home, 'plain-turn', { endsAgoMs: 60_000, sessionId: '0b7a3f2e-9c1d-4e5f-8a6b-0000000000c3' })
  const hidden = placeClaude(home, 'plain-turn', { endsAgoMs: 60_000, sessionId: '0b7a3f2e-9c1d-4e5f-8a6b-0000000000d4' })
  lockedProject = join(dirname(dirname(hidden.path)), '-locked-project')
  moveInto(hidden, lockedProject)
  // The whole fake home belongs to the other user; the two folders are then closed to everyone.
  spawnSync('chown', ['-R', `${other.user.uid}:${other.user.gid}`, home.home])
  chmodSync(home.home, 0o755)
  chmodSync(lockedDay, 0o000)
  chmodSync(lockedProject, 0o000)
})
afterAll(() => {
  if (!other.ok) return
  chmodSync(lockedDay, 0o755)
  chmodSync(lockedProject, 0o755)
  home.cleanup()
})

function sessionsAsOther(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  if (!other.ok) throw new Error(other.reason)
  const result = spawnSync(`${root}node_modules/.bin/tsx`, ['src/cli/main.ts', 'sessions', '--no-opencode-url', '--home', home.home, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    uid: other.user.uid,
    gid: other.user.gid,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.home, TMPDIR: home.home },
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe.skipIf(!other.ok)('chatrail sessions with an unreadable folder (as an unprivileged user)', () => {
  it('--json lists the readable sessions of both agents and names each skipped folder in `warnings`', () => {
    const result = sessionsAsOther('--json')
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const out = JSON.parse(result.stdout) as { entries: MonitorEntry[]; warnings: string[] }
    expect(out.entries.map((entry) => entry.key).sort()).toEqual([visibleClaude.key, visibleCodex.key].sort())
    expect(out.warnings).toEqual(expect.arrayContaining([expect.stringContaining(lockedDay), expect.stringContaining(lockedProject)]))
    for (const warning of out.warnings) expect(warning).toMatch(/^skipped unreadable folder .* \(EACCES\)$/)
  }, 90_000)

  it('the table shows the readable sessions and a warning line per skipped folder', () => {
    const result = sessionsAsOther()
    expect(result.status).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^AGENT\s+PROJECT/)
    expect(lines.filter((line) => /^(claude|codex)\s/.test(line))).toHaveLength(2)
    expect(lines).toContain(`warning: skipped unreadable folder ${lockedDay} (EACCES)`)
    expect(lines).toContain(`warning: skipped unreadable folder ${lockedProject} (EACCES)`)
  }, 90_000)
})

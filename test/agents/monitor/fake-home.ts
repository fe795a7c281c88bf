import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { projectSlug } from '../../../src/agents/claude-code/locate.js'

/**
 * A throwaway home built from the recorded fixtures (test/fixtures/claude-code, test/fixtures/codex):
 * transcripts and rollouts placed where the CLIs write them, optionally only a prefix of their lines
 * (the rest appended later, as the CLI would), under a fresh session id, with timestamps shifted.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const CLAUDE_FIXTURES = join(root, 'test', 'fixtures', 'claude-code')
const CODEX_FIXTURES = join(root, 'test', 'fixtures', 'codex')

export interface FakeHome {
  home: string
  codexHome: string
  cleanup: () => void
}

export function makeFakeHome(): FakeHome {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'chatrail-monitor-')))
  return { home, codexHome: join(home, '.codex'), cleanup: () => rmSync(home, { recursive: true, force: true }) }
}

export interface PlacedSession {
  key: string
  sessionId: string
  path: string
  cwd: string
  /** Every line of the fixture (each ending in "\n"), after the id and time rewrites. */
  lines: string[]
  /** Lines written so far. */
  written: number
}

export interface PlaceOptions {
  /** A new session id in place of the recorded one (so one fixture can be placed many times). */
  sessionId?: string
  /** Write only the first N lines (default all). */
  lines?: number
  /** Add this to every top-level `timestamp` (ms). */
  shiftMs?: number
  /**
   * Shift every top-level `timestamp` so that the fixture's last line lands this long before the
   * test's clock (`Date.now()`); wins over `shiftMs`. Tests that run the monitor on the real clock
   * use it, so they read the same on any date.
   */
  endsAgoMs?: number
}

/** A recorded Claude Code transcript under `<home>/.claude/projects/<slug>/<sessionId>.jsonl`. */
export function placeClaude(home: FakeHome, fixture: string, options: PlaceOptions = {}, transcript?: string): PlacedSession {
  const scenario = JSON.parse(readFileSync(join(CLAUDE_FIXTURES, fixture, 'scenario.json'), 'utf8')) as { transcript: string }
  const name = transcript ?? scenario.transcript
  const recordedId = name.replace(/\.jsonl$/, '')
  const sessionId = options.sessionId ?? recordedId
  const lines = rewrite(readFileSync(join(CLAUDE_FIXTURES, fixture, name), 'utf8'), recordedId, sessionId, options)
  const cwd = lines.map((line) => (JSON.parse(line) as { cwd?: unknown }).cwd).find((value): value is string => typeof value === 'string') ?? '/tmp/unknown'
  const path = join(home.home, '.claude', 'projects', projectSlug(cwd), `${sessionId}.jsonl`)
  return place({ key: `claude-code:${sessionId}`, sessionId, path, cwd, lines, written: 0 }, options.lines)
}

interface CodexManifest {
  scenarios: Record<string, { rollout: string; rolloutFileName: string }>
}

/** A recorded Codex rollout under `<codexHome>/sessions/2026/11/30/rollout-…-<id>.jsonl`. */
export function placeCodex(home: FakeHome, scenarioName: string, options: PlaceOptions = {}): PlacedSession {
  const manifest = JSON.parse(readFileSync(join(CODEX_FIXTURES, 'manifest.json'), 'utf8')) as CodexManifest
  const scenario = manifest.scenarios[scenarioName]
  if (scenario === undefined) throw new Error(`no Codex fixture scenario ${scenarioName}`)
  const recordedId = scenario.rolloutFileName.slice(-'.jsonl'.length - 36, -'.jsonl'.length)
  const sessionId = options.sessionId ?? recordedId
  const lines = rewrite(readFileSync(join(CODEX_FIXTURES, scenario.rollout), 'utf8'), recordedId, sessionId, options)
  const meta = JSON.parse(lines[0] ?? '{}') as { payload?: { cwd?: string } }
  const path = join(home.codexHome, 'sessions', '2026', '11', '30', scenario.rolloutFileName.replace(recordedId, sessionId))
  return place({ key: `codex:${sessionId}`, sessionId, path, cwd: meta.payload?.cwd ?? '', lines, written: 0 }, options.lines)
}

/** Appends the next `count` unwritten lines (default: all the rest); returns the bytes appended. */
export function appendLines(session: PlacedSession, count = session.lines.length - session.written): number {
  const next = session.lines.slice(session.written, session.written + count).join('')
  appendFileSync(session.path, next)
  // The file's times come from the kernel's clock and the monitor compares them with the process's:
  // pin them to the process's clock so a shifted clock (CI's second run, a year ahead) sees what a
  // real session would.
  const now = new Date()
  utimesSync(session.path, now, now)
  session.written += count
  return Buffer.byteLength(next)
}

/** Writes a Claude registry entry `<home>/.claude/sessions/<pid>.json`; returns its path. */
export function writeRegistry(home: FakeHome, entry: { pid: number; sessionId: string; cwd: string; status: string; waitingFor?: string; startedAt?: number }): string {
  const dir = join(home.home, '.claude', 'sessions')
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${entry.pid}.json`)
  const now = entry.startedAt ?? Date.now()
  writeFileSync(path, JSON.stringify({ ...entry, startedAt: now, version: '2.1.197', kind: 'interactive', updatedAt: now, statusUpdatedAt: now }))
  return path
}

/** The pid of a process that has exited (for a registry entry whose process is gone). */
export function deadPid(): number {
  const result = spawnSync('true')
  if (result.pid === undefined) throw new Error('could not spawn `true` for a dead pid')
  return result.pid
}

/** Epoch ms of a fixture line's top-level `timestamp`. */
export function lineTime(line: string): number {
  const value = (JSON.parse(line) as { timestamp?: unknown }).timestamp
  if (typeof value !== 'string') throw new Error(`line has no timestamp: ${line.slice(0, 80)}`)
  return Date.parse(value)
}

function place(session: PlacedSession, lines: number | undefined): PlacedSession {
  mkdirSync(dirname(session.path), { recursive: true })
  writeFileSync(session.path, '')
  appendLines(session, lines ?? session.lines.length)
  return session
}

function rewrite(text: string, fromId: string, toId: string, options: PlaceOptions): string[] {
  const replaced = fromId === toId ? text : text.split(fromId).join(toId)
  const lines = replaced.split('\n').filter((line) => line.trim() !== '')
  const shiftMs = options.endsAgoMs === undefined ? (options.shiftMs ?? 0) : Date.now() - options.endsAgoMs - lastLineTime(lines)
  return lines.map((line) => `${shiftMs === 0 ? line : shift(line, shiftMs)}\n`)
}

function shift(line: string, ms: number): string {
  const record = JSON.parse(line) as Record<string, unknown>
  if (typeof record.timestamp === 'string') record.timestamp = new Date(Date.parse(record.timestamp) + ms).toISOString()
  return JSON.stringify(record)
}

/** The newest top-level `timestamp` among `lines` (lines without one are skipped). */
export function lastLineTime(lines: readonly string[]): number {
  const times = lines.flatMap((line) => {
    const value = (JSON.parse(line) as { timestamp?: unknown }).timestamp
    return typeof value === 'string' ? [Date.parse(value)] : []
  })
  return Math.max(...times)
}

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { locateTranscript, projectSlug, transcriptPathFor } from '../../../src/agents/claude-code/locate.js'
import { findRegistryEntry, isRegistryProcessAlive, parseRegistryEntry } from '../../../src/agents/claude-code/registry.js'
import type { ClaudeRegistryEntry } from '../../../src/agents/claude-code/registry.js'
import { tempDir } from './transcript-builder.js'
import type { TempDir } from './transcript-builder.js'

/** Locating the transcript through the CLI registry (run-state-readers §8 items 5–6, 98–99). */

let tmp: TempDir
let home: string
const cwd = '/work/some project.v2'
const alive = new Set<number>([101, 102, 104])
const isAlive = (e: ClaudeRegistryEntry): boolean => alive.has(e.pid)

beforeEach(() => {
  tmp = tempDir()
  home = tmp.dir
  mkdirSync(join(home, '.claude', 'sessions'), { recursive: true })
})
afterEach(() => tmp.cleanup())

function register(pid: number, entry: Partial<ClaudeRegistryEntry>): void {
  writeFileSync(join(home, '.claude', 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId: `s-${pid}`, cwd, startedAt: pid, status: 'idle', ...entry }))
}

describe('projectSlug / transcriptPathFor', () => {
  it('maps every character outside [A-Za-z0-9] to "-" (so "/." becomes "--")', () => {
    expect(projectSlug('/work/some project.v2')).toBe('-work-some-project-v2')
    expect(projectSlug('/home/u/.x')).toBe('-home-u--x')
    expect(transcriptPathFor({ home: '/h', cwd: '/a/b', sessionId: 'abc' })).toBe('/h/.claude/projects/-a-b/abc.jsonl')
  })
})

describe('locateTranscript', () => {
  it('5: an empty home is a miss, never the user\'s own ~/.claude', async () => {
    expect(await locateTranscript({ home: '', cwd })).toBeUndefined()
  })

  it('6: no sessions dir, junk files or no matching entry are misses', async () => {
    expect(await locateTranscript({ home: join(home, 'nowhere'), cwd, isAlive })).toBeUndefined()
    writeFileSync(join(home, '.claude', 'sessions', 'junk.json'), '{not json')
    writeFileSync(join(home, '.claude', 'sessions', 'notes.txt'), 'x')
    expect(await locateTranscript({ home, cwd, isAlive })).toBeUndefined()
  })

  it('98: skips older, dead-pid, wrong-cwd and sessionId-less entries; takes the newest live match', async () => {
    register(101, { startedAt: 1 })
    register(102, { startedAt: 5 })
    register(103, { startedAt: 9 }) // dead
    register(104, { startedAt: 10, cwd: '/elsewhere' })
    register(105, { startedAt: 11, sessionId: '' })
    const found = await locateTranscript({ home, cwd, isAlive })
    expect(found).toMatchObject({ sessionId: 's-102', transcriptId: 's-102', exists: false, registryPath: join(home, '.claude', 'sessions', '102.json') })
    expect(found?.registry.pid).toBe(102)
    expect((await findRegistryEntry({ home, cwd, isAlive }))?.entry.sessionId).toBe('s-102')
  })

  it('99: returns the computed path before the file exists, and a /clear rotation is visible as a new transcriptId', async () => {
    register(101, { sessionId: 'before-clear' })
    const first = await locateTranscript({ home, cwd, isAlive })
    expect(first?.path).toBe(transcriptPathFor({ home, cwd, sessionId: 'before-clear' }))
    expect(first?.exists).toBe(false)
    mkdirSync(join(home, '.claude', 'projects', projectSlug(cwd)), { recursive: true })
    writeFileSync(first?.path ?? '', '')
    expect((await locateTranscript({ home, cwd, isAlive }))?.exists).toBe(true)
    register(101, { sessionId: 'after-clear' })
    const second = await locateTranscript({ home, cwd, isAlive })
    expect(second?.transcriptId).toBe('after-clear')
    expect(second?.transcriptId).not.toBe(first?.transcriptId)
  })
})

describe('registry entries', () => {
  it('parses the 2.1.197 shape and rejects non-entries', () => {
    const text = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'claude-code', 'permission-pending', 'registry.json'), 'utf8')
    expect(parseRegistryEntry(text)).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt', kind: 'interactive', version: '2.1.197' })
    expect(parseRegistryEntry('{"pid":"1"}')).toBeUndefined()
    expect(parseRegistryEntry('nope')).toBeUndefined()
  })

  it('checks liveness by pid and, on Linux, by process start time (a reused pid is dead)', () => {
    expect(isRegistryProcessAlive({ pid: process.pid })).toBe(true)
    expect(isRegistryProcessAlive({ pid: 2 ** 30 })).toBe(false)
    if (existsSync(`/proc/${process.pid}/stat`)) {
      const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8')
      const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
      expect(isRegistryProcessAlive({ pid: process.pid, procStart: start })).toBe(true)
      expect(isRegistryProcessAlive({ pid: process.pid, procStart: '1' })).toBe(false)
    }
  })
})

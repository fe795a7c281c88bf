import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isRolloutContent, locateRollout, parseRolloutFileName, readRolloutOrigin } from '../../../src/agents/codex/index.js'
import { envelope, sessionMeta, userMessage } from './rollout-builders.js'

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/codex')

let home: string
let codexHome: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'chatrail-codex-locate-'))
  codexHome = join(home, '.codex')
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const id = (n: number): string => `01a22000-0000-7000-8000-${String(n).padStart(12, '0')}`

/** Writes `sessions/<day>/rollout-<stamp>-<id>.jsonl` whose first line says `cwd`. */
function rollout(day: string, stamp: string, n: number, first: string): string {
  const folder = join(codexHome, 'sessions', ...day.split('-'))
  mkdirSync(folder, { recursive: true })
  const path = join(folder, `rollout-${stamp}-${id(n)}.jsonl`)
  writeFileSync(path, `${first}\n${userMessage('hi')}\n`)
  return path
}

describe('locateRollout', () => {
  it('returns the newest rollout whose session_meta.cwd matches, by date folder and then by name', async () => {
    rollout('2026-01-04', '2026-01-04T23-59-00', 1, sessionMeta(id(1), '/work/app'))
    rollout('2026-01-05', '2026-01-05T09-00-00', 2, sessionMeta(id(2), '/work/app'))
    const newest = rollout('2026-01-05', '2026-01-05T17-30-00', 3, sessionMeta(id(3), '/work/app'))
    rollout('2026-01-06', '2026-01-06T08-00-00', 4, sessionMeta(id(4), '/work/other'))
    expect(await locateRollout({ cwd: '/work/app', home })).toEqual({ path: newest, sessionId: id(3) })
  })

  it('orders by the local-time names only: UTC times inside the files are never compared with them', async () => {
    // Written at 23:30 local on the 5th = the 6th in UTC; the later local file holds an earlier UTC time.
    rollout('2026-01-05', '2026-01-05T23-30-00', 1, envelope('session_meta', { id: id(1), timestamp: '2026-01-06T05:30:00Z', cwd: '/w' }))
    const later = rollout('2026-01-06', '2026-01-06T00-10-00', 2, envelope('session_meta', { id: id(2), timestamp: '2026-01-05T18:10:00Z', cwd: '/w' }))
    expect((await locateRollout({ cwd: '/w', home }))?.path).toBe(later)
  })

  it('a new thread (/new) becomes the identity as soon as its file exists', async () => {
    rollout('2026-01-05', '2026-01-05T09-00-00', 1, sessionMeta(id(1), '/w'))
    expect((await locateRollout({ cwd: '/w', home }))?.sessionId).toBe(id(1))
    rollout('2026-01-05', '2026-01-05T09-05-00', 2, sessionMeta(id(2), '/w'))
    expect((await locateRollout({ cwd: '/w', home }))?.sessionId).toBe(id(2))
  })

  it('misses without an error: no tree, an empty home, junk first lines, non-rollout names, another format', async () => {
    expect(await locateRollout({ cwd: '/w', home })).toBeUndefined()
    rollout('2026-01-05', '2026-01-05T09-00-00', 1, 'not json at all')
    rollout('2026-01-05', '2026-01-05T09-01-00', 2, userMessage('no meta first'))
    rollout('2026-01-05', '2026-01-05T09-02-00', 3, JSON.stringify({ type: 'user', sessionId: 'claude', cwd: '/w' }))
    writeFileSync(join(codexHome, 'sessions', '2026', '01', '05', 'notes.jsonl'), `${sessionMeta(id(9), '/w')}\n`)
    expect(await locateRollout({ cwd: '/w', home })).toBeUndefined()
    rollout('2026-01-05', '2026-01-05T08-00-00', 4, sessionMeta(id(4), '/w'))
    expect(await locateRollout({ cwd: '/w', home: '' })).toBeUndefined()
    expect((await locateRollout({ cwd: '/w', home }))?.sessionId).toBe(id(4))
  })

  it('honours an explicit codexHome (CODEX_HOME) and the flat early layout', async () => {
    const elsewhere = join(home, 'custom-codex')
    mkdirSync(join(elsewhere, 'sessions'), { recursive: true })
    const flat = join(elsewhere, 'sessions', `rollout-2025-05-01-${id(7)}.jsonl`)
    writeFileSync(flat, `${sessionMeta(id(7), '/w')}\n`)
    expect(await locateRollout({ cwd: '/w', home, codexHome: elsewhere })).toEqual({ path: flat, sessionId: id(7) })
    expect(await locateRollout({ cwd: '/w', home })).toBeUndefined()
  })

  it('takes the id from the file name when session_meta has none, and compares cwd through symlinks', async () => {
    const real = join(home, 'real-project')
    mkdirSync(real)
    symlinkSync(real, join(home, 'link'))
    rollout('2026-01-05', '2026-01-05T09-00-00', 5, envelope('session_meta', { cwd: real }))
    expect(await locateRollout({ cwd: join(home, 'link'), home })).toMatchObject({ sessionId: id(5) })
  })

  it('locates a .jsonl.zst rollout, and prefers the plain file when both exist', async () => {
    const folder = join(codexHome, 'sessions', '2026', '01', '05')
    mkdirSync(folder, { recursive: true })
    const meta = JSON.parse(readFileSync(join(fixtures, 'resume.rollout.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { payload: { id: string; cwd: string } }
    const name = `rollout-2026-01-05T10-00-00-${meta.payload.id}.jsonl`
    writeFileSync(join(folder, `${name}.zst`), readFileSync(join(fixtures, 'resume.rollout.jsonl.zst')))
    // The recorded cwd no longer exists: it is compared as a resolved path.
    expect(await locateRollout({ cwd: meta.payload.cwd, home })).toEqual({ path: join(folder, `${name}.zst`), sessionId: meta.payload.id })
    writeFileSync(join(folder, name), readFileSync(join(fixtures, 'resume.rollout.jsonl')))
    expect((await locateRollout({ cwd: meta.payload.cwd, home }))?.path).toBe(join(folder, name))
  })

  it('finds what the real CLI wrote, in the real folder layout', async () => {
    // The recorded file, placed where Codex writes it: its date folder is the local date of its name.
    const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8')) as { scenarios: Record<string, { rolloutFileName: string }> }
    const name = manifest.scenarios['tool-run']?.rolloutFileName ?? ''
    const stamp = parseRolloutFileName(name)?.stamp ?? ''
    const folder = join(codexHome, 'sessions', stamp.slice(0, 4), stamp.slice(5, 7), stamp.slice(8, 10))
    mkdirSync(folder, { recursive: true })
    const text = readFileSync(join(fixtures, 'tool-run.rollout.jsonl'), 'utf8')
    writeFileSync(join(folder, name), text)
    const cwd = (JSON.parse(text.split('\n')[0] ?? '{}') as { payload: { cwd: string } }).payload.cwd
    expect(await locateRollout({ cwd, home })).toEqual({ path: join(folder, name), sessionId: parseRolloutFileName(name)?.id })
  })
})

describe('readRolloutOrigin', () => {
  it('reads the id and cwd from session_meta (plain or .zst), else the id from the file name', async () => {
    const plain = rollout('2026-01-05', '2026-01-05T09-00-00', 1, sessionMeta(id(2), '/w'))
    expect(await readRolloutOrigin(plain)).toEqual({ sessionId: id(2), cwd: '/w' })
    const bare = rollout('2026-01-05', '2026-01-05T09-01-00', 3, userMessage('no meta'))
    expect(await readRolloutOrigin(bare)).toEqual({ sessionId: id(3) })
    const zst = join(fixtures, 'resume.rollout.jsonl.zst')
    const meta = JSON.parse(readFileSync(join(fixtures, 'resume.rollout.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { payload: { id: string; cwd: string } }
    expect(await readRolloutOrigin(zst)).toEqual({ sessionId: meta.payload.id, cwd: meta.payload.cwd })
    const stray = join(home, 'notes.jsonl')
    writeFileSync(stray, 'not a rollout\n')
    expect(await readRolloutOrigin(stray)).toBeUndefined()
  })
})

describe('parseRolloutFileName', () => {
  it('splits the local stamp from the UUID like upstream, with or without .zst', () => {
    expect(parseRolloutFileName('rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl')).toEqual({
      id: '019a93b9-f380-7600-98ff-940e6b99603c',
      stamp: '2025-11-17T15-30-28',
      compressed: false,
    })
    expect(parseRolloutFileName(`rollout-2025-05-01-${id(1)}.jsonl.zst`)).toEqual({ id: id(1), stamp: '2025-05-01', compressed: true })
    expect(parseRolloutFileName('rollout-2025-11-17T15-30-28-not-a-uuid.jsonl')).toBeUndefined()
    expect(parseRolloutFileName(`session-${id(1)}.jsonl`)).toBeUndefined()
    expect(parseRolloutFileName(`rollout-${id(1)}.json`)).toBeUndefined()
  })
})

describe('isRolloutContent (for chatrail inspect)', () => {
  it('recognises every rollout generation and nothing else', () => {
    expect(isRolloutContent(JSON.parse(sessionMeta()))).toBe(true)
    expect(isRolloutContent(JSON.parse(userMessage('x')))).toBe(true)
    expect(isRolloutContent({ id: 'x', timestamp: '2025-08-11T18:18:33Z', instructions: null })).toBe(true)
    expect(isRolloutContent({ record_type: 'state' })).toBe(true)
    expect(isRolloutContent({ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: 'hi' } })).toBe(false)
    expect(isRolloutContent({ type: 'summary', summary: 'x', leafUuid: 'u' })).toBe(false)
    expect(isRolloutContent({ type: 'thread.started', thread_id: id(1) })).toBe(false)
    expect(isRolloutContent([1])).toBe(false)
    expect(isRolloutContent(null)).toBe(false)
  })

  it('accepts the first line of a real CLI rollout', () => {
    const first = readFileSync(join(fixtures, 'plain-turn.rollout.jsonl'), 'utf8').split('\n')[0] ?? ''
    expect(isRolloutContent(JSON.parse(first))).toBe(true)
  })
})

import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, readdirSync, readlinkSync, statSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MonitorStats } from '../../../src/agents/monitor/monitor-stats.js'
import { placeClaude, placeCodex } from './fake-home.js'
import type { PlacedSession } from './fake-home.js'
import { createHarness } from './harness.js'
import type { Harness } from './harness.js'

/**
 * 1,000 sessions (500 Claude Code transcripts, 500 Codex rollouts, built from the recorded
 * fixtures under fresh ids): the first tick reads each file once; a tick after three appends reads
 * exactly the appended bytes of exactly those three files; an idle tick reads nothing. The open
 * files never exceed the bound, and no descriptor outlives a tick.
 */

const SESSIONS_PER_AGENT = 500
const MAX_OPEN = 8

let h: Harness
let claude: PlacedSession[]
let codex: PlacedSession[]

beforeAll(() => {
  h = createHarness(Date.parse('2026-11-30T01:00:00Z'), { maxOpenFiles: MAX_OPEN })
  claude = Array.from({ length: SESSIONS_PER_AGENT }, () => placeClaude(h.home, 'plain-turn', { sessionId: randomUUID() }))
  codex = Array.from({ length: SESSIONS_PER_AGENT }, () => placeCodex(h.home, 'plain-turn', { sessionId: randomUUID() }))
})
afterAll(() => h.home.cleanup())

function delta(after: MonitorStats, before: MonitorStats): Record<'bytesRead' | 'fileReads' | 'originReads' | 'registryBytes', number> {
  return {
    bytesRead: after.bytesRead - before.bytesRead,
    fileReads: after.fileReads - before.fileReads,
    originReads: after.originReads - before.originReads,
    registryBytes: after.registryBytes - before.registryBytes,
  }
}

/** Descriptors this process holds on files under the fake home (Linux /proc). */
function descriptorsUnderHome(): string[] {
  const dir = '/proc/self/fd'
  return readdirSync(dir).flatMap((fd) => {
    try {
      const target = readlinkSync(`${dir}/${fd}`)
      return target.startsWith(h.home.home) ? [target] : []
    } catch {
      return []
    }
  })
}

describe('monitor at scale: 1,000 sessions', () => {
  it('the first tick reads every file once, whole; within the open-file bound', async () => {
    const events = await h.tick()
    expect(events.map((event) => event.type)).toEqual(['snapshot'])
    expect(h.monitor.getState().entries).toHaveLength(2 * SESSIONS_PER_AGENT)
    const total = [...claude, ...codex].reduce((sum, session) => sum + statSync(session.path).size, 0)
    const stats = h.monitor.stats()
    expect(stats).toMatchObject({ bytesRead: total, transcriptBytes: total, fileReads: 1000, originReads: SESSIONS_PER_AGENT, openFiles: 0 })
    expect(stats.peakOpenFiles).toBeGreaterThan(1)
    expect(stats.peakOpenFiles).toBeLessThanOrEqual(MAX_OPEN)
    if (existsSync('/proc/self/fd')) expect(descriptorsUnderHome()).toEqual([])
  }, 60_000)

  it('a tick after appends to three files reads exactly those bytes of those files', async () => {
    const before = h.monitor.stats()
    const at = new Date(Date.parse('2026-11-30T01:00:05Z')).toISOString()
    h.at(Date.parse(at) + 500)
    const codexLine = `${JSON.stringify({ timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'One more thing.' } })}\n`
    const targets = [codex[17], codex[401], claude[250]] as PlacedSession[]
    const claudeTarget = targets[2] as PlacedSession
    const parentUuid = claudeTarget.lines.map((line) => (JSON.parse(line) as { uuid?: string }).uuid).filter((uuid) => uuid !== undefined).at(-1)
    const claudeLine = `${JSON.stringify({ parentUuid, isSidechain: false, type: 'user', message: { role: 'user', content: 'One more thing.' }, uuid: randomUUID(), timestamp: at, sessionId: claudeTarget.sessionId, cwd: claudeTarget.cwd })}\n`
    appendFileSync((targets[0] as PlacedSession).path, codexLine)
    appendFileSync((targets[1] as PlacedSession).path, codexLine)
    appendFileSync(claudeTarget.path, claudeLine)
    const appended = 2 * Buffer.byteLength(codexLine) + Buffer.byteLength(claudeLine)

    const events = await h.tick()
    expect(delta(h.monitor.stats(), before)).toEqual({ bytesRead: appended, fileReads: 3, originReads: 0, registryBytes: 0 })
    // Each append reopened its (finished) session as running: one change and one reopening each.
    expect(events.filter((event) => event.type === 'session_changed').map((event) => event.entry.key).sort()).toEqual(targets.map((t) => t.key).sort())
    expect(events.filter((event) => event.type === 'session_reopened')).toHaveLength(3)
    for (const target of targets) expect(h.entry(target.key)).toMatchObject({ state: 'working', status: 'running', lastActivityAt: Date.parse(at) })
    expect(h.monitor.stats().openFiles).toBe(0)
  }, 60_000)

  it('a tick with nothing new reads nothing and says nothing', async () => {
    const before = h.monitor.stats()
    h.at(h.now() + 1000)
    const events = await h.tick()
    expect(events).toEqual([])
    expect(delta(h.monitor.stats(), before)).toEqual({ bytesRead: 0, fileReads: 0, originReads: 0, registryBytes: 0 })
    if (existsSync('/proc/self/fd')) expect(descriptorsUnderHome()).toEqual([])
  }, 60_000)
})

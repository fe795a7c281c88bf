import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { runSessions } from '../../../src/cli/sessions.js'
import { startReplayServer } from './replay-server.js'
import type { ReplayServer } from './replay-server.js'

/**
 * Seed 002: the server's status beats timestamps. A session the server reports busy, or that has
 * a permission or question pending, is live however long it has been quiet: it must never read
 * "presumed ended" by the silence rule. The server answers with the real recorded reads; the
 * session's last update is placed 25 h before the monitor's clock (the ended window is 24 h).
 */

const HOUR = 3_600_000
const NOW = 1_900_000_000_000

let replay: ReplayServer | undefined
const homes: string[] = []
afterEach(async () => {
  await replay?.close()
  replay = undefined
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true })
})

async function monitorEntry(server: ReplayServer, now: number): Promise<MonitorEntry | undefined> {
  const home = mkdtempSync(join(tmpdir(), 'chatrail-oc-evidence-'))
  homes.push(home)
  const monitor = createMonitor({ home, opencodeUrl: server.url, clock: () => now, watch: false })
  await monitor.tick()
  expect(monitor.getState().warnings).toEqual([])
  return monitor.getState().entries.find((entry) => entry.sessionId === server.sessionId)
}

describe('createMonitor: the OpenCode server\'s status is live evidence', () => {
  it('a permission pending for 25 h is still waiting for approval, not presumed ended', async () => {
    replay = await startReplayServer('permission-once', { updatedAt: NOW - 25 * HOUR })
    expect(await monitorEntry(replay, NOW)).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { answerable: true } })
  })

  it('a question pending for 25 h is still a question', async () => {
    replay = await startReplayServer('question-answered', { updatedAt: NOW - 25 * HOUR })
    expect(await monitorEntry(replay, NOW)).toMatchObject({ state: 'question', status: 'waiting_for_input', pendingDialog: { prompt: 'Which color should the button be?' } })
  })

  it('a session the server reports busy is not ended by silence (a quiet live session reads idle)', async () => {
    replay = await startReplayServer('permission-once', { updatedAt: NOW - 25 * HOUR, withoutRequests: true })
    const entry = await monitorEntry(replay, NOW)
    expect(entry).toMatchObject({ state: 'idle', status: 'idle' })
    expect(entry?.endedBy).toBeUndefined()
  })
})

describe('chatrail sessions: the same rule in one pass', () => {
  it('a permission pending for 25 h is listed as waiting for approval', async () => {
    replay = await startReplayServer('permission-once', { updatedAt: Date.now() - 25 * HOUR })
    const home = mkdtempSync(join(tmpdir(), 'chatrail-oc-evidence-'))
    homes.push(home)
    let out = ''
    expect(await runSessions(['--home', home, '--json', '--opencode-url', replay.url], { stdout: (text) => (out += text), stderr: () => undefined, env: {} })).toBe(0)
    const { entries } = JSON.parse(out) as { entries: MonitorEntry[] }
    expect(entries.find((entry) => entry.sessionId === replay?.sessionId)).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval' })
  })
})

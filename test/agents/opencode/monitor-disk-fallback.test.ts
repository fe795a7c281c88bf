import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { URL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { Monitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { freePort } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { copyRecordedDatabase } from './fallback-files.js'
import type { DataDirCopy } from './fallback-files.js'
import { startReplayServer } from './replay-server.js'
import type { ReplayServer } from './replay-server.js'

/**
 * The monitor's OpenCode source while the server comes and goes: live states while it answers (a
 * server replaying the real recorded reads), the data folder's inventory as `unknown` while it
 * does not (the recorded `opencode.db`), live again when it is back — same keys throughout, one
 * note each way. The fixtures are placed a minute before the monitor's clock.
 */

const NOW = 1_900_000_000_000
let replay: ReplayServer | undefined
let data: DataDirCopy | undefined
let monitor: Monitor | undefined
afterEach(async () => {
  await monitor?.stop()
  await replay?.close()
  data?.cleanup()
  monitor = replay = data = undefined
})

const opencodeEntries = (m: Monitor): MonitorEntry[] => m.getState().entries.filter((entry) => entry.agent === 'opencode')

describe('createMonitor({ opencodeUrl }): the disk while the server is down', () => {
  it('live → server gone: every stored session unknown → server back: live again', async () => {
    data = await copyRecordedDatabase(NOW - 60_000)
    replay = await startReplayServer('permission-once', { updatedAt: NOW - 60_000 })
    const port = Number(new URL(replay.url).port)
    const key = `opencode:${replay.sessionId}`
    monitor = createMonitor({ home: data.home, opencodeUrl: replay.url, clock: () => NOW, watch: false, settleMs: 0 })

    await monitor.tick()
    expect(opencodeEntries(monitor).map((entry) => entry.key)).toEqual([key])
    expect(opencodeEntries(monitor)[0]).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', path: `${replay.url}/session/${replay.sessionId}` })

    await replay.close()
    replay = undefined
    await monitor.tick()
    const down = opencodeEntries(monitor)
    expect(down).toHaveLength(5)
    for (const entry of down) {
      expect(entry).toMatchObject({ state: 'needs_input', status: 'unknown', title: 'Scripted title' })
      expect(entry.detail).toContain('is not reachable')
      expect(entry.pendingDialog).toBeUndefined()
    }
    expect(down.find((entry) => entry.key === key)?.lastActivityAt).toBe(NOW - 60_000)
    expect(monitor.getState().warnings).toEqual([expect.stringMatching(/^OpenCode at http:\/\/127\.0\.0\.1:\d+: Nothing answers .* listed from .*opencode, state unknown, until it answers$/)])

    await monitor.tick() // still down: nothing new said
    expect(monitor.getState().warnings).toHaveLength(1)

    replay = await startReplayServer('permission-once', { updatedAt: NOW - 60_000, port })
    await monitor.tick()
    expect(opencodeEntries(monitor).map((entry) => entry.key)).toEqual([key])
    expect(opencodeEntries(monitor)[0]).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { answerable: true } })
    expect(monitor.getState().warnings.at(-1)).toMatch(/answers again/)
  })

  it('opencodeOptional: nothing listening is not noted; the stored sessions are listed as unknown', async () => {
    data = await copyRecordedDatabase(NOW - 60_000)
    monitor = createMonitor({ home: data.home, opencodeUrl: `http://127.0.0.1:${await freePort()}`, opencodeOptional: true, clock: () => NOW, watch: false })
    await monitor.tick()
    expect(opencodeEntries(monitor)).toHaveLength(5)
    expect(opencodeEntries(monitor).every((entry) => entry.status === 'unknown')).toBe(true)
    expect(monitor.getState().warnings).toEqual([])
  })

  it('a data folder given explicitly is the one read', async () => {
    data = await copyRecordedDatabase(NOW - 60_000)
    monitor = createMonitor({ home: '/nonexistent-home', opencodeUrl: `http://127.0.0.1:${await freePort()}`, opencodeDataDir: data.dataDir, opencodeOptional: true, clock: () => NOW, watch: false })
    await monitor.tick()
    expect(opencodeEntries(monitor)).toHaveLength(5)
  })

  it('a session known only by its storage/session_diff file is listed too (seed 002\'s last fallback), by the file\'s time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chatrail-oc-diff-'))
    try {
      const diffs = join(dataDir, 'storage', 'session_diff')
      mkdirSync(diffs, { recursive: true })
      writeFileSync(join(diffs, 'ses_onlyADiff01.json'), '[]')
      writeFileSync(join(diffs, 'notes.json'), '[]')
      utimesSync(join(diffs, 'ses_onlyADiff01.json'), (NOW - 60_000) / 1000, (NOW - 60_000) / 1000)
      monitor = createMonitor({ home: dataDir, opencodeUrl: `http://127.0.0.1:${await freePort()}`, opencodeDataDir: dataDir, opencodeOptional: true, clock: () => NOW, watch: false })
      await monitor.tick()
      expect(opencodeEntries(monitor)).toEqual([expect.objectContaining({ key: 'opencode:ses_onlyADiff01', status: 'unknown', lastActivityAt: NOW - 60_000 })])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('an empty opencodeDataDir is refused, naming the option', () => {
    expect(() => createMonitor({ home: '/tmp', opencodeUrl: 'http://127.0.0.1:4096', opencodeDataDir: '' })).toThrow(expect.objectContaining({ option: 'opencodeDataDir' }) as Error)
  })
})

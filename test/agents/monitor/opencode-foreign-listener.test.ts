import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import { loopbackListenerUids } from '../../../src/agents/opencode/listener-owner.js'
import { runSessions } from '../../../src/cli/sessions.js'
import { opencodeMonitorOptions } from '../../../src/cli/sessions-opencode.js'
import { otherUser } from '../../support/other-user.js'
import { FORGED_ID, FORGED_TITLE, startOpencodeListener } from './opencode-listener.js'
import type { OpencodeListener } from './opencode-listener.js'

/**
 * Issue 28 item 2: plain `chatrail sessions` asked OpenCode's default port with the user's
 * password, and any local user can listen there while OpenCode is not running: the squatter got
 * `Authorization: Basic …` and its forged session "rm -rf ~" showed as running. Now credentials go
 * only to a URL the user named, the default probe sends none, and a loopback listener whose socket
 * another uid owns (/proc/net/tcp) is not asked at all — said in the monitor's `warnings` and as a
 * `warning:` line of `chatrail sessions`. The squatter runs as `chatrail-other`.
 */

const other = otherUser()
const PASSWORD = 'the-users-real-opencode-password'
const basic = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`

let home: string
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'chatrail-oc-squat-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

const listeners: OpencodeListener[] = []
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.stop()))
})
async function listen(as?: Parameters<typeof startOpencodeListener>[0]): Promise<OpencodeListener> {
  const listener = await startOpencodeListener(as)
  listeners.push(listener)
  return listener
}

/** Everything the listener received before now: a last request of ours marks the end of the log. */
async function receivedBy(listener: OpencodeListener): Promise<string[]> {
  await fetch(`${listener.url}/sentinel`).then((response) => response.body?.cancel())
  await expect.poll(() => listener.seen.some((request) => request.path === '/sentinel'), { timeout: 10_000 }).toBe(true)
  return listener.seen.filter((request) => request.path !== '/sentinel').map((request) => `${request.path} ${request.authorization ?? '(no authorization)'}`)
}

async function sessions(args: string[]): Promise<string> {
  let out = ''
  const code = await runSessions(['--home', home, '--all', ...args], { stdout: (text) => (out += `${text}\n`), stderr: (text) => (out += `${text}\n`), env: { OPENCODE_SERVER_PASSWORD: PASSWORD } })
  expect(code).toBe(0)
  return out
}

describe.skipIf(!other.ok)('a listener another user owns', () => {
  it('its socket owner is read from /proc/net/tcp', async () => {
    if (!other.ok) return
    const squatter = await listen(other.user)
    expect(await loopbackListenerUids(Number(new URL(squatter.url).port))).toEqual([other.user.uid])
  })

  it('chatrail sessions --opencode-url <its url>: not asked, nothing sent, its session not shown, a warning line', async () => {
    if (!other.ok) return
    const squatter = await listen(other.user)
    const table = await sessions(['--opencode-url', squatter.url])
    expect(table).not.toContain(FORGED_TITLE)
    expect(table).toContain(`warning: OpenCode at ${squatter.url}: The server at ${squatter.url} is not yours: the socket listening on port ${new URL(squatter.url).port} belongs to uid ${other.user.uid}`)
    expect(await receivedBy(squatter)).toEqual([])
    const json = JSON.parse(await sessions(['--json', '--opencode-url', squatter.url])) as { entries: MonitorEntry[]; warnings: string[] }
    expect(json.entries.map((entry) => entry.sessionId)).not.toContain(FORGED_ID)
    expect(json.warnings.join('\n')).toContain(`belongs to uid ${other.user.uid}`)
  })

  it('the default probe (no --opencode-url) pointed at it: the same, although OpenCode being down is otherwise not noted', async () => {
    if (!other.ok) return
    const squatter = await listen(other.user)
    const monitor = createMonitor({ home, watch: false, ...opencodeMonitorOptions({}, home, { OPENCODE_SERVER_PASSWORD: PASSWORD }), opencodeUrl: squatter.url })
    await monitor.tick()
    expect(monitor.getState().entries.map((entry) => entry.sessionId)).not.toContain(FORGED_ID)
    expect(monitor.getState().warnings).toEqual([expect.stringContaining(`belongs to uid ${other.user.uid}, not to you`)])
    expect(await receivedBy(squatter)).toEqual([])
    await monitor.stop()
  })
})

describe('credentials go only where the user sent them', () => {
  it('the default probe sends none, even with OPENCODE_SERVER_PASSWORD in the environment', async () => {
    const ours = await listen()
    const saved = process.env.OPENCODE_SERVER_PASSWORD
    process.env.OPENCODE_SERVER_PASSWORD = PASSWORD
    try {
      const options = opencodeMonitorOptions({}, home, { OPENCODE_SERVER_PASSWORD: PASSWORD })
      expect(options.opencodeUrl).toBe('http://127.0.0.1:4096')
      // The same options with the URL moved to a port of our own (4096 may be in use on this machine).
      const monitor = createMonitor({ home, watch: false, ...options, opencodeUrl: ours.url })
      await monitor.tick()
      // Our own listener is trusted: its (unprotected) session is listed…
      expect(monitor.getState().entries.map((entry) => entry.sessionId)).toContain(FORGED_ID)
      await monitor.stop()
    } finally {
      if (saved === undefined) delete process.env.OPENCODE_SERVER_PASSWORD
      else process.env.OPENCODE_SERVER_PASSWORD = saved
    }
    // …but no request carried the password.
    const received = await receivedBy(ours)
    expect(received.length).toBeGreaterThan(0)
    expect(received.every((line) => line.endsWith('(no authorization)'))).toBe(true)
  })

  it('a URL the user names gets the password of the command environment', async () => {
    const ours = await listen()
    expect(await sessions(['--opencode-url', ours.url])).toContain(FORGED_TITLE)
    const received = await receivedBy(ours)
    expect(received).toContain(`/session ${basic}`)
    expect(received.every((line) => line.endsWith(basic))).toBe(true)
  })
})

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { opencodeUrlOf, runInspect } from '../../../src/cli/inspect.js'
import { runSessions } from '../../../src/cli/sessions.js'
import { opencodeMonitorOptions } from '../../../src/cli/sessions-opencode.js'
import { copyRecordedDatabase } from './fallback-files.js'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { events, eventsPath, messagesJson } from './fixture-files.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'

/** `chatrail inspect` and `chatrail sessions` on OpenCode without the binary: a recorded event stream, and the server options' errors. */

async function inspect(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runInspect(args, { stdout: (text) => (out += `${text}\n`), stderr: (text) => (err += `${text}\n`) })
  return { code, out, err }
}

describe('chatrail inspect, OpenCode', () => {
  it('detects a recorded event stream and shows its state and messages', async () => {
    const { code, out } = await inspect([eventsPath('turn-completes')])
    expect(code).toBe(0)
    expect(out).toMatch(/^opencode · /)
    expect(out).toContain('status  completed')
    expect(out).toContain('Hello from OpenCode — café ✓')
  })

  it('--json prints exactly the AgentChat', async () => {
    const { code, out } = await inspect(['--json', eventsPath('permission-reject')])
    expect(code).toBe(0)
    const chat = JSON.parse(out) as AgentChat
    expect(chat).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'stopped' })
  })

  it('--opencode-url with another --agent is a usage error', async () => {
    const { code, err } = await inspect(['--agent', 'codex', '--opencode-url', 'http://127.0.0.1:4096', 'ses_abc'])
    expect(code).toBe(2)
    expect(err).toContain('--opencode-url reads an OpenCode session')
  })

  it('--opencode-url with nothing listening is exit 1 naming the URL and how to start the server', async () => {
    const port = await freePort()
    const { code, err } = await inspect(['--opencode-url', `http://127.0.0.1:${port}`, 'ses_abc'])
    expect(code).toBe(1)
    expect(err).toContain('OPENCODE_UNREACHABLE')
    expect(err).toContain(`127.0.0.1:${port}`)
    expect(err).toContain('opencode serve')
  })
})

describe('chatrail sessions --opencode-url, without a server', () => {
  it('an unreachable server is a warning, never a failure', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chatrail-oc-sessions-'))
    const port = await freePort()
    let out = ''
    try {
      const code = await runSessions(['--home', home, '--json', '--opencode-url', `http://127.0.0.1:${port}`], { stdout: (text) => (out += text), stderr: () => undefined, env: {} })
      expect(code).toBe(0)
      const parsed = JSON.parse(out) as { entries: unknown[]; warnings: string[] }
      expect(parsed.entries).toEqual([])
      expect(parsed.warnings.join('\n')).toContain(`OpenCode at http://127.0.0.1:${port}: Nothing answers`)
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('then falls back to the stored sessions under <home>/.local/share/opencode, every one unknown', async () => {
    const home = mkdtempSync(join(tmpdir(), 'chatrail-oc-sessions-'))
    const storage = join(home, '.local', 'share', 'opencode', 'storage')
    const write = (path: string, value: unknown): void => {
      mkdirSync(join(path, '..'), { recursive: true })
      writeFileSync(path, JSON.stringify(value))
    }
    const info = events('turn-completes').filter((event) => event.type === 'session.updated').at(-1)?.properties.info as { id: string; projectID: string; time: { updated: number } }
    // Recent, so the monitor's day-of-silence rule does not presume it ended.
    write(join(storage, 'session', info.projectID, `${info.id}.json`), { ...info, time: { ...info.time, updated: Date.now() - 60_000 } })
    for (const entry of messagesJson('turn-completes') as Array<{ info: { id: string } }>) write(join(storage, 'message', info.id, `${entry.info.id}.json`), entry.info)
    const port = await freePort()
    let out = ''
    try {
      const code = await runSessions(['--home', home, '--json', '--opencode-url', `http://127.0.0.1:${port}`], { stdout: (text) => (out += text), stderr: () => undefined, env: {} })
      expect(code).toBe(0)
      const parsed = JSON.parse(out) as { entries: MonitorEntry[]; warnings: string[] }
      expect(parsed.entries).toEqual([expect.objectContaining({ key: `opencode:${info.id}`, agent: 'opencode', state: 'needs_input', status: 'unknown', title: 'Scripted title' })])
      expect(parsed.warnings[0]).toContain('Nothing answers')
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('prefers opencode.db (read-only, WAL-aware) over the legacy files when the server is down', async () => {
    // Place the recorded sessions a minute ago, so the day-of-silence rule does not depend on today's date.
    const data = await copyRecordedDatabase(Date.now() - 60_000)
    const port = await freePort()
    let out = ''
    try {
      expect(await runSessions(['--home', data.home, '--json', '--opencode-url', `http://127.0.0.1:${port}`], { stdout: (text) => (out += text), stderr: () => undefined, env: {} })).toBe(0)
      const { entries } = JSON.parse(out) as { entries: MonitorEntry[] }
      expect(entries).toHaveLength(5)
      expect(entries.every((entry) => entry.agent === 'opencode' && entry.status === 'unknown' && entry.title === 'Scripted title')).toBe(true)
    } finally {
      data.cleanup()
    }
  })

  it('--no-opencode-url leaves OpenCode out: no stored session listed; with --opencode-url it is a usage error', async () => {
    const data = await copyRecordedDatabase(Date.now() - 60_000)
    let out = ''
    let err = ''
    try {
      const io = { stdout: (text: string) => (out += text), stderr: (text: string) => (err += text), env: {} }
      expect(await runSessions(['--home', data.home, '--json', '--no-opencode-url'], io)).toBe(0)
      expect((JSON.parse(out) as { entries: MonitorEntry[] }).entries).toEqual([])
      out = ''
      expect(await runSessions(['--home', data.home, '--json', '--opencode-url', `http://127.0.0.1:${await freePort()}`], io)).toBe(0)
      expect((JSON.parse(out) as { entries: MonitorEntry[] }).entries).toHaveLength(5)
      expect(await runSessions(['--home', data.home, '--no-opencode-url', '--opencode-url', 'http://127.0.0.1:4096'], io)).toBe(2)
      expect(err).toContain('--opencode-url and --no-opencode-url contradict each other')
    } finally {
      data.cleanup()
    }
  })

  it('a URL that is not http(s) is refused by createMonitor, naming the option', () => {
    expect(() => createMonitor({ home: tmpdir(), opencodeUrl: 'localhost:4096' })).toThrow(expect.objectContaining({ option: 'opencodeUrl' }) as Error)
  })
})

describe('chatrail sessions: which OpenCode server and data folder', () => {
  it('by default the server at http://127.0.0.1:4096, optional (nothing listening is not a warning), and $XDG_DATA_HOME/opencode', () => {
    // No credentials for a default URL the user did not name, even with a password in the environment.
    expect(opencodeMonitorOptions({}, '/home/me', { XDG_DATA_HOME: '/xdg', OPENCODE_SERVER_PASSWORD: 'pw' })).toEqual({ opencodeUrl: 'http://127.0.0.1:4096', opencodeOptional: true, opencodeDataDir: '/xdg/opencode', opencodeAuth: null })
    expect(opencodeMonitorOptions({}, '/home/me', {})).toEqual({ opencodeUrl: 'http://127.0.0.1:4096', opencodeOptional: true, opencodeDataDir: '/home/me/.local/share/opencode', opencodeAuth: null })
  })

  it('a URL you name is expected (a failure to read it is a warning); --home reads that home\'s folder, not $XDG_DATA_HOME', () => {
    expect(opencodeMonitorOptions({ 'opencode-url': 'http://127.0.0.1:5000', home: '/other' }, '/other', { XDG_DATA_HOME: '/xdg' })).toEqual({ opencodeUrl: 'http://127.0.0.1:5000', opencodeOptional: false, opencodeDataDir: '/other/.local/share/opencode', opencodeAuth: null })
    // A URL you name gets the command environment's credentials.
    expect(opencodeMonitorOptions({ 'opencode-url': 'http://127.0.0.1:5000' }, '/home/me', { OPENCODE_SERVER_PASSWORD: 'pw', OPENCODE_SERVER_USERNAME: 'me' })).toMatchObject({ opencodeAuth: { username: 'me', password: 'pw' } })
  })

  it('--no-opencode-url: nothing of OpenCode', () => {
    expect(opencodeMonitorOptions({ 'no-opencode-url': true }, '/home/me', {})).toEqual({})
  })
})

describe('chatrail inspect --agent opencode <ses_…> without --opencode-url', () => {
  it('reads the session from the server at OpenCode\'s default address; a file of that name, another agent or an explicit URL wins', () => {
    const none = (): boolean => false
    expect(opencodeUrlOf({ agent: 'opencode' }, 'ses_3c1f0a', none)).toBe('http://127.0.0.1:4096')
    expect(opencodeUrlOf({ agent: 'opencode', 'opencode-url': 'http://127.0.0.1:5000' }, 'ses_3c1f0a', none)).toBe('http://127.0.0.1:5000')
    expect(opencodeUrlOf({ agent: 'opencode' }, 'ses_3c1f0a', () => true)).toBeUndefined()
    expect(opencodeUrlOf({ agent: 'opencode' }, 'events.jsonl', none)).toBeUndefined()
    expect(opencodeUrlOf({ agent: 'codex' }, 'ses_3c1f0a', none)).toBeUndefined()
    expect(opencodeUrlOf({}, 'ses_3c1f0a', none)).toBeUndefined()
  })
})

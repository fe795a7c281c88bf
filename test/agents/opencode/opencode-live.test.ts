import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readChat } from '../../../src/agents/opencode/read-chat.js'
import { readDatabaseChat } from '../../../src/agents/opencode/database.js'
import { watchChat } from '../../../src/agents/opencode/watch-chat.js'
import { OpencodeServerError } from '../../../src/agents/opencode/opencode-errors.js'
import { runInspect } from '../../../src/cli/inspect.js'
import { runSessions } from '../../../src/cli/sessions.js'
import { createMonitor } from '../../../src/agents/monitor/create-monitor.js'
import type { OpencodeServerProcess } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { OPENCODE_BIN } from '../../support/opencode-cli.js'
import type { MonitorEntry } from '../../../src/agents/monitor/monitor-entry.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'
import { restartOnPort } from './restart-on-port.js'
import { answerQuestion, BASH_MARKER, COMPLETE_TEXT, driveTurn, replyPermission, startRig, TAGS } from './opencode-scenarios.js'
import type { OpencodeRig } from './opencode-scenarios.js'

/**
 * The reader against the real `opencode serve` 1.18.33 and the scripted Anthropic server. One
 * server for the turn scenarios; a second one for the 401 and for being killed mid-turn (each has
 * its own random password, `rig.auth`). Every wait is bounded.
 */

let rig: OpencodeRig
beforeAll(async () => {
  rig = await startRig()
}, 90_000)
afterAll(async () => {
  await rig?.close()
})

/** Polls `check` every 100 ms until it holds; fails naming `what` after `timeoutMs` (generous: the machine is shared). */
async function waitFor(what: string, check: () => boolean, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const read = (sessionId: string): Promise<AgentChat> => readChat({ baseUrl: rig.server.url, sessionId, auth: rig.auth })
const mainRequests = (): string[] => rig.model.requests.filter((request) => !request.side).map((request) => JSON.stringify(request.body.messages))

describe('readChat on the real server', () => {
  it('a turn that completes', async () => {
    const turn = await driveTurn(rig, { prompt: `${TAGS.complete} Say hello.` })
    const chat = await read(turn.sessionId)
    expect(chat).toMatchObject({ agent: 'opencode', sessionId: turn.sessionId, state: 'needs_input', status: 'completed' })
    expect(chat.messages.map((message) => [message.role, message.text])).toEqual([
      ['user', `${TAGS.complete} Say hello.`],
      ['assistant', COMPLETE_TEXT],
    ])
  }, 90_000)

  it('a bash permission asked → pending dialog → answered once → the tool ran and the turn completed', async () => {
    let during: AgentChat | undefined
    const turn = await driveTurn(rig, {
      prompt: `${TAGS.bash} Run the marker command.`,
      onAsk: async (event, client) => {
        during = await read(String(event.properties.sessionID))
        await replyPermission('once')(event, client)
      },
    })
    expect(during).toMatchObject({ state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { answerable: true } })
    const after = await read(turn.sessionId)
    expect(after.status).toBe('completed')
    expect(after.messages.find((message) => message.kind === 'tool')?.tool).toMatchObject({ name: 'bash', status: 'ok', output: expect.stringContaining(BASH_MARKER) as unknown })
    expect(mainRequests().some((body) => body.includes('tool_result') && body.includes(BASH_MARKER))).toBe(true)
  }, 90_000)

  it('a bash permission rejected → the tool is denied and the turn stopped', async () => {
    const turn = await driveTurn(rig, { prompt: `${TAGS.bash} Run the marker command.`, onAsk: replyPermission('reject') })
    const chat = await read(turn.sessionId)
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped' })
    expect(chat.messages.find((message) => message.kind === 'tool')?.tool?.status).toBe('error')
  }, 90_000)

  it('a question asked → question state → answered → the answer reaches the model', async () => {
    let during: AgentChat | undefined
    const before = mainRequests().length
    const turn = await driveTurn(rig, {
      prompt: `${TAGS.question} Ask me about the color.`,
      onAsk: async (event, client) => {
        during = await read(String(event.properties.sessionID))
        await answerQuestion([['Blue']])(event, client)
      },
    })
    expect(during).toMatchObject({ state: 'question', status: 'waiting_for_input', pendingDialog: { prompt: 'Which color should the button be?', answerable: true } })
    const chat = await read(turn.sessionId)
    expect(chat.messages.find((message) => message.kind === 'dialog')?.dialog?.outcome?.results).toEqual([{ question: 'Which color should the button be?', chosen: ['Blue'] }])
    expect(mainRequests().slice(before).some((body) => body.includes('tool_result') && body.includes('=\\"Blue\\"'))).toBe(true)
  }, 90_000)

  it('abort mid-stream → streaming while it streams, stopped after', async () => {
    let streaming: AgentChat | undefined
    const turn = await driveTurn(rig, {
      prompt: `${TAGS.hang} Write a long essay.`,
      onStreaming: async (sessionId, client) => {
        streaming = await read(sessionId)
        await client.post(`/session/${sessionId}/abort`, {})
      },
    })
    expect(streaming).toMatchObject({ state: 'working' })
    const chat = await read(turn.sessionId)
    expect(chat).toMatchObject({ state: 'needs_input', status: 'stopped', detail: 'aborted' })
  }, 90_000)

  it('watchChat follows a turn live, through the permission, to completed', async () => {
    const created = (await rig.client.post('/session', {})) as { id: string }
    const seen: string[] = []
    let replied = false
    const completed = new Promise<void>((resolve) => {
      const watcher = watchChat({
        baseUrl: rig.server.url,
        sessionId: created.id,
        auth: rig.auth,
        onChange: (chat) => {
          seen.push(`${chat.state}/${chat.status}`)
          if (chat.status === 'waiting_for_approval' && !replied) {
            replied = true
            void rig.client.post(`/permission/${chat.pendingDialog?.toolId ?? ''}/reply`, { reply: 'once' })
          }
          if (chat.status === 'completed') {
            watcher.close()
            resolve()
          }
        },
      })
      void watcher.ready.then(() => rig.client.post(`/session/${created.id}/prompt_async`, { parts: [{ type: 'text', text: `${TAGS.bash} Run the marker command.` }] }))
    })
    await completed
    expect(seen[0]).toBe('idle/idle')
    expect(seen).toContain('needs_input/waiting_for_approval')
    expect(seen.indexOf('needs_input/waiting_for_approval')).toBeLessThan(seen.indexOf('needs_input/completed'))
    expect(seen.some((state) => state.startsWith('working/'))).toBe(true)
  }, 90_000)

  it('chatrail inspect --agent opencode --opencode-url <url> <session> reads it from the server', async () => {
    const turn = await driveTurn(rig, { prompt: `${TAGS.complete} Say hello.` })
    let out = ''
    // inspect takes the password from OPENCODE_SERVER_PASSWORD, like a user's shell would give it.
    const saved = process.env.OPENCODE_SERVER_PASSWORD
    process.env.OPENCODE_SERVER_PASSWORD = rig.auth.password
    const code = await runInspect(['--agent', 'opencode', '--opencode-url', rig.server.url, turn.sessionId, '--json'], { stdout: (text) => (out += text), stderr: () => undefined }).finally(() => {
      if (saved === undefined) delete process.env.OPENCODE_SERVER_PASSWORD
      else process.env.OPENCODE_SERVER_PASSWORD = saved
    })
    expect(code).toBe(0)
    expect(JSON.parse(out)).toMatchObject({ agent: 'opencode', sessionId: turn.sessionId, status: 'completed' })
  }, 90_000)

  it('chatrail sessions --opencode-url lists the server\'s sessions with their live states', async () => {
    const emptyHome = mkdtempSync(join(tmpdir(), 'chatrail-oc-sessions-'))
    const list = async (): Promise<MonitorEntry[]> => {
      let out = ''
      const code = await runSessions(['--home', emptyHome, '--json', '--all', '--opencode-url', rig.server.url], { stdout: (text) => (out += text), stderr: () => undefined, env: { OPENCODE_SERVER_PASSWORD: rig.auth.password } })
      expect(code).toBe(0)
      return (JSON.parse(out) as { entries: MonitorEntry[] }).entries
    }
    try {
      let waiting: MonitorEntry | undefined
      const turn = await driveTurn(rig, {
        prompt: `${TAGS.bash} Run the marker command.`,
        onAsk: async (event, client) => {
          waiting = (await list()).find((entry) => entry.sessionId === event.properties.sessionID)
          await replyPermission('once')(event, client)
        },
      })
      expect(waiting).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { answerable: true } })
      const after = (await list()).find((entry) => entry.sessionId === turn.sessionId)
      expect(after).toMatchObject({ key: `opencode:${turn.sessionId}`, state: 'ended', status: 'completed', endedBy: 'turn', cwd: rig.home.cwd })
      let table = ''
      await runSessions(['--home', emptyHome, '--all', '--opencode-url', rig.server.url], { stdout: (text) => (table += `${text}\n`), stderr: () => undefined, env: { OPENCODE_SERVER_PASSWORD: rig.auth.password } })
      expect(table).toMatch(/opencode\s+proj/)
    } finally {
      rmSync(emptyHome, { recursive: true, force: true })
    }
  }, 90_000)

  it('opencode.db is read while the server runs: the WAL\'s fresh writes included, read-only', async () => {
    const turn = await driveTurn(rig, { prompt: `${TAGS.complete} Say hello.` })
    const fromServer = await read(turn.sessionId)
    const fromDisk = await readDatabaseChat({ dbPath: join(rig.home.dataDir, 'opencode.db'), sessionId: turn.sessionId })
    expect(fromDisk.messages).toEqual(fromServer.messages)
    expect(fromDisk).toMatchObject({ state: 'needs_input', status: 'unknown' })
    // The server keeps working with its database after our read.
    expect((await driveTurn(rig, { prompt: `${TAGS.complete} Again.` })).events.length).toBeGreaterThan(0)
  }, 90_000)

  it('createMonitor({ opencodeUrl }) follows the server: a permission shows at the next tick, then the finished turn', async () => {
    const emptyHome = mkdtempSync(join(tmpdir(), 'chatrail-oc-monitor-'))
    const monitor = createMonitor({ home: emptyHome, opencodeUrl: rig.server.url, opencodeAuth: rig.auth, watch: false, settleMs: 0 })
    try {
      let waiting: MonitorEntry | undefined
      const turn = await driveTurn(rig, {
        prompt: `${TAGS.bash} Run the marker command.`,
        onAsk: async (event, client) => {
          await monitor.tick()
          waiting = monitor.getState().entries.find((entry) => entry.sessionId === event.properties.sessionID)
          await replyPermission('once')(event, client)
        },
      })
      expect(waiting).toMatchObject({ agent: 'opencode', state: 'needs_input', status: 'waiting_for_approval', pendingDialog: { answerable: true } })
      await monitor.tick()
      // The title OpenCode gave the session (the scripted model's side reply), as `GET /session` lists it.
      expect(monitor.getState().entries.find((entry) => entry.sessionId === turn.sessionId)).toMatchObject({ state: 'ended', status: 'completed', endedBy: 'turn', title: 'Scripted title' })
      expect(monitor.getState().warnings).toEqual([])
    } finally {
      await monitor.stop()
      rmSync(emptyHome, { recursive: true, force: true })
    }
  }, 90_000)

  it('an unknown session is an OPENCODE_HTTP_ERROR, a malformed id is refused before any request', async () => {
    await expect(read('ses_doesNotExist123')).rejects.toSatisfy((error: unknown) => OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_HTTP_ERROR')
    await expect(read('../../etc/passwd')).rejects.toSatisfy((error: unknown) => OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_INVALID_INPUT')
  }, 30_000)

  // Last in this suite: it kills the shared server (and starts another in its place).
  it('watching while the server goes away and comes back: live → the database inventory, unknown → live again', async () => {
    const done = await driveTurn(rig, { prompt: `${TAGS.complete} Say hello.` })
    const waitingId = ((await rig.client.post('/session', {})) as { id: string }).id
    await rig.client.post(`/session/${waitingId}/prompt_async`, { parts: [{ type: 'text', text: `${TAGS.bash} Run the marker command.` }] })
    const emptyHome = mkdtempSync(join(tmpdir(), 'chatrail-oc-monitor-'))
    const monitor = createMonitor({ home: emptyHome, opencodeUrl: rig.server.url, opencodeAuth: rig.auth, opencodeDataDir: rig.home.dataDir, watch: false, pollIntervalMs: 200 })
    const entry = (sessionId: string): MonitorEntry | undefined => monitor.getState().entries.find((candidate) => candidate.sessionId === sessionId)
    const port = Number(new URL(rig.server.url).port)
    let restarted: OpencodeServerProcess | undefined
    try {
      await monitor.start()
      await waitFor('the permission and the finished turn, live', () => entry(waitingId)?.status === 'waiting_for_approval' && entry(done.sessionId)?.status === 'completed')
      const listed = monitor.getState().entries.length

      if (rig.server.pid !== undefined) process.kill(-rig.server.pid, 'SIGKILL')
      await rig.server.exited
      await waitFor('every session from the database, unknown', () => monitor.getState().entries.every((candidate) => candidate.status === 'unknown'))
      expect(monitor.getState().entries).toHaveLength(listed)
      expect(entry(waitingId)).toMatchObject({ state: 'needs_input', status: 'unknown', path: `${join(rig.home.dataDir, 'opencode.db')}#session/${waitingId}` })
      expect(entry(waitingId)?.pendingDialog).toBeUndefined()
      expect(entry(done.sessionId)?.detail).toContain('is not reachable')
      expect(monitor.getState().warnings.join('\n')).toContain(`OpenCode at ${rig.server.url}: Nothing answers`)

      // Started again under the same credentials, where the monitor looks for it.
      restarted = await restartOnPort({ bin: OPENCODE_BIN, cwd: rig.home.cwd, env: rig.home.env, port, password: rig.auth.password, startTimeoutMs: 60_000, graceMs: 2000, dataDir: rig.home.dataDir })
      await waitFor('live states again', () => entry(done.sessionId)?.status === 'completed')
      expect(entry(done.sessionId)).toMatchObject({ state: 'ended', endedBy: 'turn', path: `${rig.server.url}/session/${done.sessionId}` })
      // The permission lived in the killed server's memory: the new server does not know it.
      expect(entry(waitingId)?.status).not.toBe('waiting_for_approval')
      expect(monitor.getState().warnings.at(-1)).toContain('answers again')
    } finally {
      await monitor.stop()
      await restarted?.stop()
      rmSync(emptyHome, { recursive: true, force: true })
    }
  }, 150_000)
})

describe('the server\'s password, then the server killed mid-turn', () => {
  let locked: OpencodeRig
  beforeAll(async () => {
    locked = await startRig()
  }, 90_000)
  afterAll(async () => {
    await locked?.close()
  })

  it('no or a wrong password is a clear 401 error; the server\'s own (or in OPENCODE_SERVER_PASSWORD) reads', async () => {
    const created = (await locked.client.post('/session', {})) as { id: string }
    const error = await readChat({ baseUrl: locked.server.url, sessionId: created.id, auth: { password: 'wrong' } }).catch((caught: unknown) => caught)
    expect(OpencodeServerError.isInstance(error) && error.code).toBe('OPENCODE_UNAUTHORIZED')
    expect(String((error as Error).message)).toContain('401')
    expect((error as OpencodeServerError).hint).toContain('OPENCODE_SERVER_PASSWORD')
    const none = await readChat({ baseUrl: locked.server.url, sessionId: created.id, auth: null }).catch((caught: unknown) => caught)
    expect(OpencodeServerError.isInstance(none) && none.code).toBe('OPENCODE_UNAUTHORIZED')
    expect(await readChat({ baseUrl: locked.server.url, sessionId: created.id, auth: locked.auth })).toMatchObject({ state: 'idle' })
    const saved = process.env.OPENCODE_SERVER_PASSWORD
    process.env.OPENCODE_SERVER_PASSWORD = locked.auth.password
    try {
      expect(await readChat({ baseUrl: locked.server.url, sessionId: created.id })).toMatchObject({ state: 'idle' })
    } finally {
      if (saved === undefined) delete process.env.OPENCODE_SERVER_PASSWORD
      else process.env.OPENCODE_SERVER_PASSWORD = saved
    }
  }, 60_000)

  it('server killed mid-turn: the watcher reports the loss, readChat fails fast, nothing hangs', async () => {
    const created = (await locked.client.post('/session', {})) as { id: string }
    const auth = locked.auth
    const states: AgentChat[] = []
    let onLost: () => void = () => undefined
    const lostSeen = new Promise<void>((resolve) => (onLost = resolve))
    let killed = false
    const watcher = watchChat({
      baseUrl: locked.server.url,
      sessionId: created.id,
      auth,
      reconnectMs: 200,
      timeoutMs: 2000,
      onChange: (chat) => {
        states.push(chat)
        if (chat.status === 'streaming' && !killed) {
          killed = true
          if (locked.server.pid !== undefined) process.kill(-locked.server.pid, 'SIGKILL')
        }
        if (chat.status === 'unknown' && chat.detail?.includes('lost the OpenCode server')) onLost()
      },
    })
    try {
      await watcher.ready
      await locked.client.post(`/session/${created.id}/prompt_async`, { parts: [{ type: 'text', text: `${TAGS.hang} Write a long essay.` }] })
      await lostSeen
      expect(states.at(-1)).toMatchObject({ state: 'needs_input', status: 'unknown' })
      const started = Date.now()
      await expect(readChat({ baseUrl: locked.server.url, sessionId: created.id, auth, timeoutMs: 2000, dataDir: false })).rejects.toSatisfy(
        (error: unknown) => OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_UNREACHABLE',
      )
      expect(Date.now() - started).toBeLessThan(3000)
      // By default it falls back to OpenCode's database: the prompt the dead server stored, state unknown.
      const fromDisk = await readChat({ baseUrl: locked.server.url, sessionId: created.id, auth, timeoutMs: 2000, dataDir: locked.home.dataDir })
      expect(fromDisk).toMatchObject({ state: 'needs_input', status: 'unknown' })
      expect(fromDisk.detail).toContain(`the OpenCode server at ${locked.server.url} is not reachable`)
      expect(fromDisk.messages[0]).toMatchObject({ role: 'user', text: `${TAGS.hang} Write a long essay.` })
    } finally {
      watcher.close()
    }
  }, 90_000)
})

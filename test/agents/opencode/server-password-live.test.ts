import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opencodeAdapter } from '../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { OpencodeAdapter } from '../../../src/agents/opencode/adapter/opencode-adapter.js'
import type { OpencodeServerProcess } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { createOpencodeClient } from '../../../src/agents/opencode/http-client.js'
import { readChat } from '../../../src/agents/opencode/read-chat.js'
import { drainWithin } from '../../support/drain-source.js'
import { startAnthropicServer } from '../../support/anthropic-server.js'
import type { AnthropicServer } from '../../support/anthropic-server.js'
import { makeOpencodeHome, OPENCODE_BIN, serveOpencode } from '../../support/opencode-cli.js'
import type { OpencodeHome } from '../../support/opencode-cli.js'
import { otherUser, runAs } from '../../support/other-user.js'
import { COMPLETE_TEXT, scriptFor } from './opencode-scenarios.js'

/**
 * Issue 28 item 1, with the real `opencode serve` (opencode-ai 1.18.33): every server chatrail
 * starts (`startOpencodeServer`, behind `opencodeAdapter` and `chatrail serve --agent opencode`)
 * gets a fresh random password, in the child's environment only, which chatrail's own client
 * sends. Another local user (`chatrail-other`), who could read the victim's mode-0600 file through
 * `GET /file/content` and create sessions in the victim's project while the server ran without a
 * password, now gets 401 for everything; chatrail's client still reads and runs turns.
 */

const other = otherUser()
const SECRET = 'the victim private notes'

/** Runs `fetch(url, init)` as the other user; its status and body. */
function fetchAsOther(url: string, init: { method?: string; authorization?: string } = {}): { status: number; body: string } {
  if (!other.ok) throw new Error(other.reason)
  const script = `const init = JSON.parse(process.argv[2]); fetch(process.argv[1], { method: init.method ?? 'GET', headers: init.authorization ? { authorization: init.authorization } : {}, ...(init.method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json', ...(init.authorization ? { authorization: init.authorization } : {}) } } : {}) }).then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: (await r.text()).slice(0, 2000) })), (e) => process.stdout.write(JSON.stringify({ status: 0, body: String(e) })))`
  const result = runAs(other.user, process.execPath, ['-e', script, url, JSON.stringify(init)], {}, '/')
  expect(result.status, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as { status: number; body: string }
}

/** Every process's command line on the machine, joined. */
function allCommandLines(): string {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      } catch {
        return ''
      }
    })
    .join('\n')
}

describe.skipIf(!other.ok)('a server chatrail starts has a password of its own', () => {
  let model: AnthropicServer
  let home: OpencodeHome
  let server: OpencodeServerProcess
  let second: OpencodeServerProcess | undefined

  beforeAll(async () => {
    model = await startAnthropicServer({ turns: Array.from({ length: 20 }, () => scriptFor), sideText: 'Scripted title' })
    // The user's own (guessable) OPENCODE_SERVER_PASSWORD is not what the started server takes.
    home = makeOpencodeHome({ modelUrl: model.url, password: 'guessable' })
    writeFileSync(`${home.cwd}/secret.txt`, SECRET, { mode: 0o600 })
    server = await serveOpencode(home)
  }, 90_000)

  afterAll(async () => {
    await server?.stop()
    await second?.stop()
    await model?.close()
    home?.cleanup()
  })

  it('another local user gets 401: no file of the project, no session, with no password or a guessed one', () => {
    const file = fetchAsOther(`${server.url}/file/content?path=secret.txt`)
    expect(file.status).toBe(401)
    expect(file.body).not.toContain(SECRET)
    expect(fetchAsOther(`${server.url}/session`, { method: 'POST' }).status).toBe(401)
    expect(fetchAsOther(`${server.url}/session`).status).toBe(401)
    const guessed = `Basic ${Buffer.from('opencode:guessable').toString('base64')}`
    expect(fetchAsOther(`${server.url}/session`, { authorization: guessed }).status).toBe(401)
  })

  it("chatrail's own client sends the server's password and reads", async () => {
    const client = createOpencodeClient({ baseUrl: server.url, auth: server.auth() })
    const created = (await client.post('/session', {})) as { id: string }
    expect(await readChat({ baseUrl: server.url, sessionId: created.id, auth: server.auth(), dataDir: false })).toMatchObject({ state: 'idle' })
    const file = (await client.get('/file/content?path=secret.txt')) as { content?: string }
    expect(file.content).toBe(SECRET)
  })

  it('the password is random per server, in the environment only: never on a command line, never in the object', async () => {
    const { password, username } = server.auth()
    expect(username).toBe('opencode')
    expect(password).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(password).not.toBe('guessable')
    expect(allCommandLines()).not.toContain(password)
    expect(readFileSync(`/proc/${String(server.pid)}/environ`, 'utf8').split('\0')).toContain(`OPENCODE_SERVER_PASSWORD=${password}`)
    expect(inspect(server, { depth: 5 })).not.toContain(password)
    expect(JSON.stringify(server)).not.toContain(password)
    second = await serveOpencode(home)
    expect(second.auth().password).not.toBe(password)
    expect(fetchAsOther(`${second.url}/session`, { authorization: `Basic ${Buffer.from(`opencode:${password}`).toString('base64')}` }).status).toBe(401)
  }, 90_000)
})

describe.skipIf(!other.ok)('the server opencodeAdapter starts', () => {
  let model: AnthropicServer
  let home: OpencodeHome
  let adapter: OpencodeAdapter

  beforeAll(async () => {
    model = await startAnthropicServer({ turns: Array.from({ length: 20 }, () => scriptFor), sideText: 'Scripted title' })
    home = makeOpencodeHome({ modelUrl: model.url })
    writeFileSync(`${home.cwd}/secret.txt`, SECRET, { mode: 0o600 })
  }, 30_000)

  afterAll(async () => {
    await adapter?.dispose()
    await model?.close()
    home?.cleanup()
  })

  it('runs a turn with its password, and refuses another local user', async () => {
    adapter = opencodeAdapter({ cwd: home.cwd, bin: OPENCODE_BIN, env: home.env, startTimeoutMs: 60_000, graceMs: 2000 })
    const chunks = await drainWithin(adapter.createSource({ messages: [{ id: 'u1', role: 'user', content: 'Say hello [complete]', status: 'complete', createdAt: new Date(0) }] }), 75_000)
    expect(chunks.filter((chunk) => chunk.type === 'text').map((chunk) => chunk.content).join('')).toContain(COMPLETE_TEXT)
    const url = adapter.serverUrl()
    expect(url).toBeDefined()
    expect(fetchAsOther(`${String(url)}/file/content?path=secret.txt`).status).toBe(401)
    expect(fetchAsOther(`${String(url)}/session`, { method: 'POST' }).status).toBe(401)
  }, 90_000)
})

import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { supportBot } from '../../examples/support-bot/definition.js'
import { moduleSpecifier, startServe } from '../../src/cli/serve.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { contentTypeOf, type PageFiles } from '../../src/cli/serve/page-files.js'
import { DEVTOOLS_API_PATH, startServeHttp, type RunningServer } from '../../src/cli/serve/serve-http.js'
import { bearerTokenAuth } from '../../src/cli/serve/token-auth.js'
import { runTestCommand } from '../../src/cli/test-command.js'
import { createDevtoolsHandler } from '../../src/devtools/index.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'

// Issue 33: `chatrail serve` mounts the devtools page at /devtools/ and the devtools API at
// /devtools/api, behind the chat's authentication: the token, or without one loopback names only.

const TOKEN = 'devtools-mount-token'
const page = (text: string): PageFiles => new Map([
  ['/index.html', { contents: new TextEncoder().encode(`<!doctype html><title>${text}</title>`), contentType: contentTypeOf('.html') }],
  ['/assets/page.js', { contents: new TextEncoder().encode(`console.log(${JSON.stringify(text)})`), contentType: contentTypeOf('.js') }],
])

/** A raw request, so the Host and Origin headers are the test's (fetch would set its own Host). */
function get(url: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(path, url)
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function serveWith(authenticate: ReturnType<typeof bearerTokenAuth> | 'none', withDevtools = true): Promise<RunningServer> {
  const store = memoryStore()
  const handler = createChatHandler({ definition: supportBot, store, authenticate })
  const devtools = createDevtoolsHandler({ store, definitions: [supportBot], authenticate, basePath: DEVTOOLS_API_PATH, access: 'all' })
  return startServeHttp({
    handler, page: page('chat'), pageConfig: pageConfigOf(supportBot), authenticate, host: '127.0.0.1', port: 0,
    ...(withDevtools ? { devtools: { handler: devtools, page: page('devtools') } } : {}),
  })
}

describe('the devtools mount of chatrail serve', () => {
  const servers: RunningServer[] = []
  afterAll(async () => {
    for (const server of servers) await server.close()
  })

  it('with a token: the page without it (it holds no data), the API only with it', async () => {
    const server = await serveWith(bearerTokenAuth(TOKEN))
    servers.push(server)
    const redirect = await get(server.url, '/devtools?c=c-1')
    expect(redirect.status).toBe(308)
    expect(redirect.headers.location).toBe('/devtools/?c=c-1')
    const html = await get(server.url, '/devtools/')
    expect(html.status).toBe(200)
    expect(html.body).toContain('<title>devtools</title>')
    expect((await get(server.url, '/devtools/assets/page.js')).body).toBe('console.log("devtools")')
    expect((await get(server.url, '/')).body).toContain('<title>chat</title>')
    expect((await get(server.url, '/devtools/', {}, 'POST')).status).toBe(405)
    expect((await get(server.url, '/devtools/nothing.js')).status).toBe(404)
    expect((await get(server.url, '/devtools/api/conversations')).status).toBe(401)
    expect((await get(server.url, '/devtools/api/conversations', { authorization: 'Bearer wrong' })).status).toBe(401)
    const listed = await get(server.url, '/devtools/api/conversations', { authorization: `Bearer ${TOKEN}` })
    expect(listed.status).toBe(200)
    expect(JSON.parse(listed.body)).toEqual({ conversations: [] })
    const definitions = await get(server.url, '/devtools/api/definitions', { authorization: `Bearer ${TOKEN}` })
    expect((JSON.parse(definitions.body) as { definitions: Array<{ id: string }> }).definitions.map((definition) => definition.id)).toEqual(['support-bot'])
  })

  it('without a token: loopback names only, for the page and the API alike (DNS rebinding)', async () => {
    const server = await serveWith('none')
    servers.push(server)
    const port = new URL(server.url).port
    for (const path of ['/devtools/', '/devtools/api/conversations', '/devtools/api/events']) {
      expect((await get(server.url, path, { host: `attacker.example:${port}` })).status, path).toBe(421)
      expect((await get(server.url, path, { host: `127.0.0.1:${port}`, origin: `http://attacker.example:${port}` })).status, path).toBe(421)
    }
    expect((await get(server.url, '/devtools/api/conversations', { host: `localhost:${port}` })).status).toBe(200)
  })

  it('without devtools nothing answers under /devtools', async () => {
    const server = await serveWith(bearerTokenAuth(TOKEN), false)
    servers.push(server)
    expect((await get(server.url, '/devtools/api/conversations', { authorization: `Bearer ${TOKEN}` })).status).toBe(404)
    expect((await get(server.url, '/devtools/')).status).toBe(404)
  })

  it('an exported test names the module relative to the directory serve runs in', () => {
    expect(moduleSpecifier('/work/app', '/work/app/chat/definition.ts')).toBe('./chat/definition.ts')
    expect(moduleSpecifier('/work/app', '/elsewhere/definition.ts')).toBe('/elsewhere/definition.ts')
  })
})

describe('chatrail serve (the command) mounts the devtools', () => {
  it('at /devtools with the chat\'s token, and an exported conversation passes `chatrail test` from the directory it served', async () => {
    const lines: string[] = []
    const io = { stdout: (line: string) => lines.push(line), stderr: (line: string) => lines.push(`stderr: ${line}`), cwd: process.cwd(), env: {} }
    const started = await startServe({ module: 'examples/support-bot/definition.ts', store: { kind: 'memory' }, port: 0, host: '127.0.0.1', token: TOKEN }, io)
    try {
      expect(lines).toContain(`devtools: ${started.url}/devtools/#token=<secret> (API at /devtools/api)`)
      const auth = { authorization: `Bearer ${TOKEN}` }
      const turn = await fetch(`${started.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ id: 's1', trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: '/start' }] }] }),
      })
      await turn.text()
      expect((await fetch(`${started.url}/devtools/api/conversations/s1`)).status).toBe(401)
      const detail = await (await fetch(`${started.url}/devtools/api/conversations/s1`, { headers: auth })).json() as { turns: Array<{ routeId: string | null }> }
      expect(detail.turns.map((item) => item.routeId)).toEqual(['start'])
      const page = await fetch(`${started.url}/devtools/`)
      expect(await page.text()).toContain('<title>chatrail devtools</title>')
      const exported = await fetch(`${started.url}/devtools/api/conversations/s1/export`, { headers: auth })
      const yaml = await exported.text()
      expect(yaml).toContain('definition: { module: "./examples/support-bot/definition.ts" }')
      // the module is named from where serve ran (the checkout); saved one folder below it, test-output/, the path is one ../ longer
      const file = join(process.cwd(), 'test-output', 'devtools-mount-s1.conv.yaml')
      // `npm run test:unit` on a fresh clone: nothing else has made test-output/ yet
      mkdirSync(join(process.cwd(), 'test-output'), { recursive: true })
      writeFileSync(file, yaml.replace('"./examples/', '"../examples/'))
      const output: string[] = []
      expect(await runTestCommand([file], { stdout: (text) => output.push(text), stderr: (text) => output.push(text), cwd: process.cwd() })).toBe(0)
      rmSync(file)
    } finally {
      await started.close()
    }
    expect(lines.filter((line) => line.startsWith('stderr:'))).toEqual([])
  }, 90_000)
})

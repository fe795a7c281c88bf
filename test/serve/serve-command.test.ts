import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { findChromium, launchChromium } from '../react/chromium.js'
import { cliBundle, scriptBundle } from '../support/cli-bundle.js'
import { pgliteDataDirFromTemplate } from '../support/pglite-template.js'
import { repoRoot, startServeFromSource, startServeProcess, type ServeProcess } from './serve-process.js'

// `chatrail serve` itself: the real CLI in its own process, read through its stdout, driven over
// HTTP and in Debian's chromium (those cases skip, with this reason, where `chromium` is not on PATH).
// The first case runs the checkout's source entry through tsx (the page built on start); the others
// the CLI built once with its page prebuilt (test/support/cli-bundle.ts), which starts in a fraction
// of the time.
const chromiumPath = findChromium()
const definition = 'examples/support-bot/definition.ts'
const cli = await cliBundle()
// The same definitions built to plain JavaScript (test/support/cli-bundle.ts), for the cases whose
// subject is not loading TypeScript: the CLI imports them without tsx (a second of CPU a start).
const builtDefinition = await scriptBundle(definition)
const hangingAgent = await scriptBundle('test/serve/fixtures/hanging-agent.ts')

function turnBody(id: string, messageId: string, text: string): string {
  return JSON.stringify({ id, messages: [{ id: messageId, role: 'user', parts: [{ type: 'text', text }] }], trigger: 'submit-message' })
}

describe('chatrail serve', () => {
  let browser: Browser | undefined
  const running: ServeProcess[] = []
  const dirs: string[] = []

  beforeAll(async () => {
    if (chromiumPath !== undefined) browser = await launchChromium(chromiumPath)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    // A clean stop first (a server a test already stopped returns at once); SIGKILL after 20 s.
    for (const server of running) await server.stop('SIGTERM')
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  async function serve(args: readonly string[], env: NodeJS.ProcessEnv = {}, start = startServeProcess): Promise<ServeProcess> {
    const server = await start(args, env)
    running.push(server)
    return server
  }

  it.skipIf(chromiumPath === undefined)('prints where it listens, says it runs without authentication on 127.0.0.1, serves the page, and a deterministic turn works in chromium', async () => {
    const server = await serve([definition, '--port', '0', '--store', 'memory'], {}, startServeFromSource)
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.stdout()).toContain("auth: none (authenticate: 'none')")
    expect(server.stdout()).toContain('page: built from renderers/serve-page with esbuild (a checkout)')
    const page = await (browser as Browser).newPage()
    await page.goto(`${server.url}/`)
    // The page is chatrail/react's chat in remote mode: the welcome screen's chips come from the
    // definition's route summary, the turn runs in this process.
    await page.locator('[data-chatrail-chat][data-chatrail-remote] [data-chatrail-suggestions]').waitFor()
    await page.getByRole('button', { name: /^\/start/ }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"][data-chatrail-turn-kind="deterministic"]').waitFor()
    expect(await page.locator('[data-chatrail-message][data-chatrail-role="assistant"] [data-chatrail-content]').innerText()).toBe('Sure. What is your order number? (for example #12345)')
    await page.close()
    // SIGTERM is a clean stop: exit 0.
    expect(await server.stop('SIGTERM')).toBe(0)
    expect(server.stdout()).toContain('stopping…')
  }, 90_000)

  it('--token: /api/chat answers 401 without the bearer token or with a wrong one; the page passes it on from #token=', async () => {
    const server = await serve([builtDefinition, '--port', '0', '--store', 'memory', '--token', 's3cret-token'])
    expect(server.stdout()).toContain('auth: Authorization: Bearer <token>')
    expect(server.stdout()).not.toContain('s3cret-token')
    const api = `${server.url}/api/chat`
    expect((await fetch(`${api}?id=t1`)).status).toBe(401)
    expect((await fetch(`${api}?id=t1`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401)
    const unauthorizedTurn = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body: turnBody('t1', 'u1', '/start') })
    expect(unauthorizedTurn.status).toBe(401)
    const allowed = await fetch(`${api}?id=t1`, { headers: { authorization: 'Bearer s3cret-token' } })
    expect(allowed.status).toBe(200)
    expect(await allowed.json()).toEqual({ messages: [], chatrail: expect.objectContaining({ state: 'greeting' }) })
    expect((await fetch(`${server.url}/chatrail-serve.json`)).status).toBe(401)
    expect(await (await fetch(`${server.url}/chatrail-serve.json`, { headers: { authorization: 'Bearer s3cret-token' } })).json()).toMatchObject({ id: 'support-bot', initial: 'greeting' })
    // The page itself carries no conversation data: it loads without the token.
    expect((await fetch(`${server.url}/`)).status).toBe(200)
    if (browser !== undefined) {
      // Without the token the page says what to do instead of showing a chat that cannot work.
      const without = await browser.newPage()
      await without.goto(`${server.url}/`)
      expect(await without.getByRole('alert').innerText()).toContain('This server needs a token')
      await without.close()
      const page = await browser.newPage()
      await page.goto(`${server.url}/#token=s3cret-token`)
      await page.getByRole('textbox', { name: 'Message' }).fill('/start')
      await page.keyboard.press('Enter')
      await page.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
      // The token left the address bar.
      expect(page.url()).not.toContain('s3cret-token')
      // A reload restores the conversation with the token the tab kept (sessionStorage).
      await page.reload()
      await page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').waitFor()
      expect(await page.locator('[data-chatrail-state-badge]').getAttribute('data-chatrail-state')).toBe('collecting')
      await page.close()
    }
  }, 90_000)

  it('keeps conversations in a PGlite directory across a restart; SIGINT closes the store', async () => {
    // a copy of a migrated PGlite (test/support/pglite-template.ts): the subject is what survives a
    // restart, not the first start's initdb (seconds; test/serve/serve-store-open.test.ts has that)
    const dir = await pgliteDataDirFromTemplate()
    dirs.push(dir)
    const first = await serve([builtDefinition, '--port', '0', '--store', `pglite:${dir}`])
    const turn = await fetch(`${first.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: turnBody('p1', 'u1', '/start') })
    expect(turn.status).toBe(200)
    expect(await turn.text()).toContain('"state":"collecting"')
    expect(await first.stop('SIGINT')).toBe(0)
    const second = await serve([builtDefinition, '--port', '0', '--store', `pglite:${dir}`])
    const restored = (await (await fetch(`${second.url}/api/chat?id=p1`)).json()) as { messages: Array<{ role: string }>; chatrail: { state: string } }
    expect(restored.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(restored.chatrail.state).toBe('collecting')
    expect(await second.stop('SIGTERM')).toBe(0)
  }, 180_000)

  it('stops on SIGTERM within a bounded time even while a turn is streaming and its agent never finishes', async () => {
    const server = await serve([hangingAgent, '--port', '0', '--store', 'memory'])
    const response = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: turnBody('h1', 'u1', 'why is the sky blue?') })
    expect(response.status).toBe(200)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let seen = ''
    while (!seen.includes('Let me think')) {
      const { value, done } = await reader.read()
      if (done) break
      seen += new TextDecoder().decode(value)
    }
    expect(seen).toContain('Let me think')
    const started = Date.now()
    expect(await server.stop('SIGTERM', 30_000)).toBe(0)
    // 5 s of grace for the streaming response, then the cut: well under the 30 s SIGKILL fallback.
    expect(Date.now() - started).toBeLessThan(25_000)
    await reader.cancel().catch(() => undefined)
  }, 90_000)

  it('refuses a non-loopback host without a token, naming the fix (exit 2)', () => {
    const result = spawnSync(process.execPath, [cli, 'serve', definition, '--host', '0.0.0.0'], {
      cwd: repoRoot, encoding: 'utf8', timeout: 30_000, env: { ...process.env, CHATRAIL_TOKEN: '' },
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('--host 0.0.0.0 lets other machines reach the chat; pass --token-file <path> (or set CHATRAIL_TOKEN)')
  })

  it('a module without a chat definition fails with exit 1 and names the module', () => {
    const result = spawnSync(process.execPath, [cli, 'serve', 'test/serve/fixtures/no-definition.ts', '--store', 'memory', '--port', '0'], {
      cwd: repoRoot, encoding: 'utf8', timeout: 30_000,
    })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('DEFINITION_EXPORT_MISSING')
    expect(result.stderr).toContain('no-definition.ts')
  })
})

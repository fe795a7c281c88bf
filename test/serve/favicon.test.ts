import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { startServe, type StartedServe } from '../../src/cli/serve.js'
import { findChromium, launchChromium } from '../react/chromium.js'

// The page asked for /favicon.ico and got a 404, logged in the browser console on every load.
const chromiumPath = findChromium()

describe('chatrail serve favicon', () => {
  let started: StartedServe
  let browser: Browser | undefined
  beforeAll(async () => {
    const io = { stdout: () => undefined, stderr: () => undefined, cwd: process.cwd(), env: {} }
    started = await startServe({ module: 'examples/support-bot/definition.ts', store: { kind: 'memory' }, port: 0, host: '127.0.0.1' }, io)
    if (chromiumPath !== undefined) browser = await launchChromium(chromiumPath)
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    await started?.close()
  })

  it('GET /favicon.ico and /favicon.svg are an image; the page links it', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const response = await fetch(`${started.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/svg+xml')
      expect(await response.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    }
    expect((await fetch(`${started.url}/favicon.ico`, { method: 'HEAD' })).status).toBe(200)
    expect(await (await fetch(`${started.url}/`)).text()).toContain('<link rel="icon" type="image/svg+xml" href="./favicon.svg" />')
  })

  it.skipIf(chromiumPath === undefined)(`a page load in chromium fetches the icon and gets no 404, nor a console error${chromiumPath === undefined ? ' — skipped: no chromium on PATH' : ''}`, async () => {
    const page = await (browser as Browser).newPage()
    const failed: string[] = []
    const icons: number[] = []
    const consoleErrors: string[] = []
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`)
      if (/\/favicon\.(svg|ico)$/.test(response.url())) icons.push(response.status())
    })
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    // the icon is fetched after the page: wait for its response (bounded), armed before the load
    const icon = page.waitForResponse((response) => /\/favicon\.(svg|ico)$/.test(response.url()), { timeout: 30_000 }).catch(() => undefined)
    await page.goto(`${started.url}/`)
    await page.locator('[data-chatrail-chat][data-chatrail-remote] [data-chatrail-suggestions]').waitFor()
    await icon
    await page.close()
    expect(failed).toEqual([])
    expect(consoleErrors).toEqual([])
    expect(icons).toContain(200)
  }, 60_000)
})

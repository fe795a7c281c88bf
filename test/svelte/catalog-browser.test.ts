import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { sveltePlugin } from './svelte-plugin.js'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../react/axe-audit.js'
import { findChromium, launchChromium } from '../react/chromium.js'
import { serveTestPage } from '../react/page-server.js'
import type { TestPageServer } from '../react/page-server.js'

// What the shared scenario suite (test/bindings) does not drive: chatrail/svelte's standard catalog
// views beyond the choice list, an app's own view (`componentViews`), a component nobody draws
// (its fallback summary, the rule every binding draws by), a form sent once, and the approval card
// of chatrail/svelte/actions. The page (catalog-page/) is built with esbuild-svelte as an app's
// bundler builds it; skipped only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const pageDir = fileURLToPath(new URL('../../test-output/svelte-catalog-page/', import.meta.url))
const title = chromiumPath === undefined
  ? 'chatrail/svelte component views in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'chatrail/svelte component views in chromium'

const html = '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>catalog</title><link rel="stylesheet" href="/main.css"></head>'
  + '<body><main><h1>Catalog</h1><div id="root" style="height: 80vh; display: flex; flex-direction: column"></div><aside id="side" aria-label="Approvals"></aside></main><script type="module" src="/main.js"></script></body></html>'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: TestPageServer | undefined
  const pageErrors: string[] = []

  beforeAll(async () => {
    await build({
      entryPoints: [fileURLToPath(new URL('./catalog-page/main.ts', import.meta.url))],
      bundle: true, format: 'esm', splitting: true, outdir: pageDir, platform: 'browser', target: 'es2022', logLevel: 'warning',
      conditions: ['svelte', 'browser'], define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [sveltePlugin()],
    })
    mkdirSync(pageDir, { recursive: true })
    writeFileSync(`${pageDir}index.html`, html)
    server = await serveTestPage(pageDir, (_request, response) => { response.writeHead(404).end() })
    browser = await launchChromium(chromiumPath as string)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function catalog(width = 1280, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme })
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${server?.origin ?? ''}/`)
    await page.getByRole('textbox', { name: 'Message' }).fill('/catalog')
    await page.keyboard.press('Enter')
    await page.locator('[data-chatrail-component="error-notice"]').waitFor()
    return page
  }
  const userTexts = (page: Page) => page.locator('[data-chatrail-message][data-chatrail-role="user"] [data-chatrail-content]').allInnerTexts()

  it('draws every standard view, the app\'s own view, and the fallback summary of a component nobody draws', async () => {
    const page = await catalog()
    const keys = await page.locator('[data-chatrail-component]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-chatrail-component')))
    expect(keys).toEqual(['button-group', 'confirmation', 'form', 'progress', 'source-list', 'link-card', 'tool-call', 'table', 'file-attachment', 'approval-request', 'error-notice'])
    expect(await page.locator('[data-chatrail-component-key="order-card"] [data-order-card]').innerText()).toContain('Order 12345')
    expect(await page.locator('[data-chatrail-component-part][data-chatrail-component-key="gift-card"] [data-chatrail-component-fallback]').innerText()).toBe('Gift card for order 12345')
    expect(await page.getByRole('progressbar', { name: 'Packing' }).getAttribute('aria-valuetext')).toBe('40%')
    expect(await page.getByRole('link', { name: 'Track the parcel' }).getAttribute('target')).toBe('_blank')
    expect(await page.getByRole('link', { name: 'Help' }).getAttribute('target')).toBeNull()
    expect(await page.locator('[data-chatrail-component="file-attachment"]').innerText()).toContain('application/pdf · 2.0 kB')
    expect(await page.getByRole('region', { name: 'Items' }).locator('td').allInnerTexts()).toEqual(['Card', 'yes', 'Box', ''])
    expect(await page.getByRole('alertdialog', { name: 'Cancel the order?' }).getByRole('button', { name: 'Confirm' }).getAttribute('data-chatrail-variant')).toBe('danger')
    await page.context().close()
  })

  it('a form is sent once, as one message naming its fields, then shows what was sent, disabled', async () => {
    const page = await catalog()
    const form = page.getByRole('form', { name: 'Address' })
    await form.getByRole('textbox', { name: /Street/ }).fill('1 Main St')
    await form.getByRole('spinbutton', { name: 'Floor' }).fill('3')
    await form.getByRole('checkbox', { name: 'Gift wrap' }).check()
    await form.getByRole('combobox', { name: 'Slot' }).selectOption('pm')
    // Two submits in one task, before anything re-renders. (A dblclick at one spot hit another
    // component's Approve once, on a loaded CI run: the list followed the sent message and moved
    // the content under the pointer between the two clicks.)
    await form.evaluate((element) => {
      const submitted = element as HTMLFormElement
      submitted.requestSubmit()
      submitted.requestSubmit()
    })
    await page.locator('[data-chatrail-component="form"][data-chatrail-answered]').waitFor()
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    expect(await userTexts(page)).toEqual(['/catalog', 'Address — Street: 1 Main St, Floor: 3, Gift wrap: yes, Slot: Afternoon'])
    expect(await form.getByRole('button', { name: 'Sent' }).isDisabled()).toBe(true)
    await page.context().close()
  })

  it('a button pressed twice sends once and shows as chosen; the app\'s own view sends through the same rule', async () => {
    const page = await catalog()
    const express = page.getByRole('group', { name: 'Pick a speed' }).getByRole('button', { name: /Express/ })
    await express.evaluate((element) => {
      const button = element as HTMLButtonElement
      button.click()
      button.click()
    })
    await page.locator('[data-chatrail-component="button-group"][data-chatrail-answered]').waitFor()
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    expect(await express.getAttribute('aria-pressed')).toBe('true')
    await page.locator('[data-order-card]').getByRole('button', { name: 'Open' }).click()
    await page.locator('[data-order-card] button[disabled]').waitFor()
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    expect(await userTexts(page)).toEqual(['/catalog', 'Express', 'Open the order'])
    await page.context().close()
  })

  it('the store\'s waiting approvals are cards decided through the view, which keep their outcome', async () => {
    const page = await catalog()
    const waiting = page.getByRole('region', { name: 'Actions waiting for approval' })
    const card = waiting.getByRole('region', { name: 'Confirm cancel_order' })
    await card.getByRole('button', { name: 'Approve' }).click()
    await waiting.locator('[data-chatrail-approval-state="approved"]').waitFor()
    expect(await card.getByRole('status').innerText()).toBe('Approved')
    await page.context().close()
  })

  it('the approval card shows a refused decision and takes the next; axe finds nothing at 1280 light and 390 dark', async () => {
    const violations: string[] = []
    for (const [width, scheme] of [[1280, 'light'], [390, 'dark']] as const) {
      const page = await catalog(width, scheme)
      violations.push(...await audit(page, `${width} ${scheme}`))
      const card = page.getByRole('region', { name: 'Confirm refund_order' })
      await card.getByRole('button', { name: 'Approve' }).click()
      expect(await card.getByRole('alert').innerText()).toBe('The server refused: try again')
      await card.getByRole('button', { name: 'Approve' }).click()
      await expect.poll(() => page.evaluate(() => (window as unknown as { decisions: string[] }).decisions)).toEqual(['approve tok-9'])
      await page.context().close()
    }
    expect(violations).toEqual([])
    expect(pageErrors).toEqual([])
  }, 60_000)
})

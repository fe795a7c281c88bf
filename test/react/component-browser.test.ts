import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatHandler, toNodeHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'
import { answeredInteractions } from '../../src/components/index.js'
import { findChromium, launchChromium } from './chromium.js'
import { audit } from './axe-audit.js'
import { buildTestPage, serveTestPage, type TestPageServer } from './page-server.js'
import { componentDefinition } from './component-page/component-definition.js'

// Component parts drawn by chatrail/react (remote mode, as the `chatrail serve` page uses it) in
// Debian's chromium against the real handler and a memory store: a route answers with a table, a
// component the page does not know and a choice list; a choice is one interaction, also after a
// reload; axe-core finds nothing at 1280 and 390 px, light and dark.
const chromiumPath = findChromium()
const pageDir = fileURLToPath(new URL('../../test-output/component-page/', import.meta.url))
const title = chromiumPath === undefined
  ? 'component parts in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'component parts in chromium, against createChatHandler'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: TestPageServer | undefined
  let store: ConversationStore
  let origin: string
  const adapter = scriptedAdapter(['the agent'])
  const pageErrors: string[] = []

  beforeAll(async () => {
    await buildTestPage({ entry: new URL('./component-page/main.tsx', import.meta.url), outdir: pageDir, html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>components</title><link rel="stylesheet" href="/main.css"><style>html, body, #root { height: 100%; margin: 0 }</style></head><body><header><h1 style="position:absolute;left:-9999px">Component parts</h1></header><main id="root"></main><script type="module" src="/main.js"></script></body></html>' })
    store = memoryStore()
    const handler = toNodeHandler(createChatHandler({ definition: componentDefinition(adapter), store, authenticate: 'none' }))
    server = await serveTestPage(pageDir, handler)
    origin = server.origin
    browser = await launchChromium(chromiumPath as string)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await store?.close()
  })

  async function open(conversation: string, width = 1280, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme })
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${origin}/?c=${conversation}`)
    await page.locator('[data-chatrail-state-badge]').waitFor()
    return page
  }
  async function lost(page: Page): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill('/lost')
    await page.keyboard.press('Enter')
    await page.getByRole('listbox', { name: 'What should happen now?' }).waitFor({ timeout: 15_000 })
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
  }
  /**
   * The page reloaded after the answer: it then holds the server's message ids (the first test
   * clicks in the tab that streamed the answer, whose ids are its controller's own: the server maps
   * them through the user message both know, plan-turn.ts).
   */
  async function reloaded(page: Page): Promise<void> {
    await page.reload()
    await page.getByRole('listbox', { name: 'What should happen now?' }).waitFor({ timeout: 15_000 })
  }
  const userMessages = async (conversation: string) => ((await store.load(conversation))?.messages ?? []).filter((message) => message.role === 'user')

  it('a table and a choice list render with their roles, an unknown key shows its fallback; one click is one interaction; after a reload the server refuses another', async () => {
    const page = await open('components-1')
    try {
      await lost(page)
      const answer = page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').first()
      const table = answer.getByRole('table', { name: 'Your orders' })
      expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Order', 'Item', 'Total'])
      expect(await table.getByRole('row').count()).toBe(3)
      expect(await answer.locator('[data-chatrail-component-fallback][data-chatrail-component-key="order-card"]').innerText()).toBe('Order 12345: 40 EUR')
      const listbox = answer.getByRole('listbox', { name: 'What should happen now?' })
      expect(await listbox.getByRole('option').count()).toBe(2)
      // in the order the route gave: text, table, the unknown one's summary, the choices
      expect(await answer.locator('strong, table, [data-chatrail-component-fallback], [role="listbox"]').evaluateAll((nodes) => nodes.map((node) => node.tagName.toLowerCase()))).toEqual(['strong', 'table', 'p', 'ul'])

      // in the tab that streamed the answer (no reload): the server finds the answer by the user message
      const reship = listbox.getByRole('option', { name: /Reship/ })
      await reship.click()
      await reship.click({ force: true })
      await page.locator('[data-chatrail-message][data-chatrail-role="assistant"]', { hasText: 'Reshipping your card.' }).waitFor({ timeout: 15_000 })
      await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
      expect(await listbox.getAttribute('aria-disabled')).toBe('true')
      expect(await reship.getAttribute('aria-selected')).toBe('true')
      await listbox.getByRole('option', { name: 'Refund' }).click({ force: true })
      await page.waitForTimeout(0)
      const sent = await userMessages('components-1')
      expect(sent.map((message) => message.content)).toEqual(['/lost', 'Reship'])
      expect(sent[1]?.metadata).toMatchObject({ chatrail: { event: 'reship', interaction: { instanceId: 'next-step', componentKey: 'choice-list', event: 'select', value: 'reship' } } })
      expect(adapter.calls).toHaveLength(0)
    } finally {
      await page.context().close()
    }

    // another tab (a reload): the restored history holds the click (its user message's
    // interaction), so the page draws the choice as answered and a click sends nothing; the server
    // refusing a stale tab's click is test/server/components.test.ts's.
    const again = await open('components-1')
    try {
      const listbox = again.getByRole('listbox', { name: 'What should happen now?' })
      await listbox.waitFor({ timeout: 15_000 })
      await again.locator('[data-chatrail-message]', { hasText: 'Reshipping your card.' }).waitFor({ timeout: 15_000 })
      expect(await listbox.getAttribute('aria-disabled')).toBe('true')
      expect(await listbox.getByRole('option', { name: /Reship/ }).getAttribute('aria-selected')).toBe('true')
      await listbox.getByRole('option', { name: 'Refund' }).click({ force: true })
      await again.waitForTimeout(0)
      expect((await userMessages('components-1')).map((message) => message.content)).toEqual(['/lost', 'Reship'])
      expect(answeredInteractions((await store.load('components-1'))?.messages ?? []).size).toBe(1)
      expect(adapter.calls).toHaveLength(0)
    } finally {
      await again.context().close()
    }
  }, 60_000)

  it('the keyboard: Tab to the listbox, ArrowDown, Enter chooses Refund', async () => {
    const page = await open('components-keys')
    try {
      await lost(page)
      await reloaded(page)
      await page.getByRole('listbox', { name: 'What should happen now?' }).focus()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')
      await page.locator('[data-chatrail-message]', { hasText: 'Refund on its way.' }).waitFor({ timeout: 15_000 })
      expect((await userMessages('components-keys')).map((message) => message.content)).toEqual(['/lost', 'Refund'])
    } finally {
      await page.context().close()
    }
  }, 60_000)

  it.for([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const)('axe finds no violation at %i px (%s), before and after the choice; nothing wider than the page', { timeout: 60_000 }, async ([width, scheme]) => {
    const conversation = `components-axe-${width}-${scheme}`
    const page = await open(conversation, width, scheme)
    try {
      await lost(page)
      const violations = await audit(page, `${width} ${scheme} asked`)
      await reloaded(page)
      await page.getByRole('option', { name: /Reship/ }).click()
      await page.locator('[data-chatrail-message]', { hasText: 'Reshipping your card.' }).waitFor({ timeout: 15_000 })
      violations.push(...await audit(page, `${width} ${scheme} answered`))
      expect(violations).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      await page.screenshot({ path: `${pageDir}${width}-${scheme}.png` })
      expect(pageErrors).toEqual([])
    } finally {
      await page.context().close()
    }
  })
})

import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { exampleBuild } from '../support/example-build.js'
import { findChromium, launchChromium } from './chromium.js'
import { audit } from './axe-audit.js'
import { serveDirectory } from './static-server.js'

// Issue #31 item 10 in a real browser: examples/react-support's scripted agent answers "refund" with
// reasoning, a tool call that runs (a long result), one that waits for approval, and an answer with
// sources. At 1280 and 390 px, light and dark, keyboard only: every state screenshotted under
// test-output/ and audited by axe-core (0 violations). The example's build is shared with its other
// suites (test/support/example-build.ts: built once per state of the sources, never modified).
const chromiumPath = findChromium()
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url))

const title = chromiumPath === undefined
  ? 'tool cards in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'tool cards, approval, reasoning and sources in chromium (1280 and 390 px, light and dark)'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: Awaited<ReturnType<typeof serveDirectory>>

  beforeAll(async () => {
    server = await serveDirectory(await exampleBuild('react-support'))
    browser = await launchChromium(chromiumPath as string)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function openTab(width: number, dark: boolean): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: width > 500 ? 800 : 844 }, colorScheme: dark ? 'dark' : 'light' })
    const tab = await context.newPage()
    const errors: string[] = []
    tab.on('pageerror', (error) => errors.push(error.message))
    await tab.goto(server.url)
    await tab.locator('[data-chatrail-suggestions]').waitFor()
    expect(errors).toEqual([])
    return tab
  }

  /** Presses Tab (or Shift+Tab) until `selector` has the focus; fails after `limit` presses. */
  async function tabTo(tab: Page, selector: string, backwards = false, limit = 40): Promise<void> {
    for (let press = 0; press < limit; press += 1) {
      if (await tab.evaluate((css) => document.activeElement?.matches(css) === true, selector)) return
      await tab.keyboard.press(backwards ? 'Shift+Tab' : 'Tab')
    }
    throw new Error(`no focus on ${selector} after ${limit} presses`)
  }
  const focused = (tab: Page, selector: string): Promise<boolean> => tab.evaluate((css) => document.activeElement?.matches(css) === true, selector)
  const refundCard = '[data-chatrail-tool-card][aria-label="Tool refund_order"]'
  const lookupCard = '[data-chatrail-tool-card][aria-label="Tool lookup_order"]'

  for (const width of [1280, 390]) {
    for (const dark of [false, true]) {
      it(`${width} px ${dark ? 'dark' : 'light'}: Thinking streams, a lookup card, Approve by keyboard, Show more, sources; axe 0`, async () => {
        const tab = await openTab(width, dark)
        const name = `react-tools-${width}-${dark ? 'dark' : 'light'}`
        const violations: string[] = []
        mkdirSync(outputDir, { recursive: true })
        const capture = async (state: string): Promise<void> => {
          await tab.screenshot({ path: `${outputDir}${name}-${state}.png` })
          violations.push(...await audit(tab, `${name} ${state}`))
        }
        try {
          await tab.getByRole('textbox', { name: 'Message' }).fill('please refund my shipping')
          await tab.keyboard.press('Enter')
          // Reasoning streams in an open "Thinking" disclosure.
          const thinking = tab.locator('[data-chatrail-reasoning-toggle]')
          await tab.locator('[data-chatrail-reasoning-streaming] [data-chatrail-reasoning-text]:not([hidden])').waitFor({ timeout: 8_000 })
            .catch(async (error: unknown) => { await tab.screenshot({ path: `${outputDir}${name}-DEBUG.png` }); throw error })
          expect(await thinking.getAttribute('aria-expanded')).toBe('true')
          await capture('thinking')

          // The approval card, reached by keyboard alone.
          await tab.locator(`${refundCard} [data-chatrail-tool-approve]`).waitFor()
          expect(await tab.locator(refundCard).getAttribute('data-chatrail-tool-status')).toBe('requires_confirmation')
          expect(await tab.locator(lookupCard).getAttribute('data-chatrail-tool-status')).toBe('complete')
          expect(await tab.locator(`${lookupCard} [data-chatrail-tool-toggle]`).getAttribute('aria-expanded')).toBe('false')
          await capture('approval')
          await tabTo(tab, `${refundCard} [data-chatrail-tool-approve]`, true)
          await tab.keyboard.press('Enter')
          await tab.locator(`${refundCard}[data-chatrail-tool-status="complete"]`).waitFor()
          // The buttons left; the focus went to the card's own disclosure button, not to the page.
          expect(await focused(tab, `${refundCard} [data-chatrail-tool-toggle]`)).toBe(true)
          await tab.locator('[data-chatrail-sources] a').first().waitFor()
          await tab.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
          expect(await thinking.getAttribute('aria-expanded')).toBe('false')
          expect(await tab.locator('[data-chatrail-sources] a').evaluateAll((links) => links.map((link) => [link.textContent, link.getAttribute('href')])))
            .toEqual([['Refund policy', 'https://example.com/refunds'], ['example.com', 'https://example.com/shipping']])
          await capture('answered')

          // Keyboard: open the lookup card, then Show more.
          await tabTo(tab, `${lookupCard} [data-chatrail-tool-toggle]`, true)
          await tab.keyboard.press('Enter')
          expect(await tab.locator(`${lookupCard} [data-chatrail-tool-toggle]`).getAttribute('aria-expanded')).toBe('true')
          await tabTo(tab, `${lookupCard} [data-chatrail-show-more]`)
          await tab.keyboard.press('Enter')
          expect(await tab.locator(`${lookupCard} [data-chatrail-show-more]`).textContent()).toBe('Show less')
          expect((await tab.locator(`${lookupCard} [data-chatrail-tool-output]`).nth(1).textContent())?.split('\n')).toHaveLength(30)
          await tabTo(tab, '[data-chatrail-reasoning-toggle]', true)
          await tab.keyboard.press('Enter')
          expect(await thinking.getAttribute('aria-expanded')).toBe('true')
          await capture('expanded')
          // Nothing scrolls sideways at this width.
          expect(await tab.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
          expect(violations).toEqual([])
        } finally {
          await tab.context().close()
        }
      }, 60_000)
    }
  }

  it('Deny by keyboard: the refund fails with "Permission denied", stays open, and the focus lands on its card; the agent answers once', async () => {
    const tab = await openTab(1280, false)
    try {
      await tab.getByRole('textbox', { name: 'Message' }).fill('refund it please')
      await tab.keyboard.press('Enter')
      await tab.locator(`${refundCard} [data-chatrail-tool-deny]`).waitFor()
      await tabTo(tab, `${refundCard} [data-chatrail-tool-deny]`, true)
      await tab.keyboard.press('Enter')
      await tab.locator(`${refundCard}[data-chatrail-tool-status="error"]`).waitFor()
      expect(await focused(tab, `${refundCard} [data-chatrail-tool-toggle]`)).toBe(true)
      expect(await tab.locator(`${refundCard} [data-chatrail-tool-toggle]`).getAttribute('aria-expanded')).toBe('true')
      expect(await tab.locator(refundCard).innerText()).toContain('Permission denied')
      await tab.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
      // The first ask and one follow-up after the denial: no second decision, no loop.
      expect(await tab.getByTestId('agent-calls').textContent()).toBe('2')
      mkdirSync(outputDir, { recursive: true })
      await tab.screenshot({ path: `${outputDir}react-tools-1280-light-denied.png` })
      expect(await audit(tab, 'denied')).toEqual([])
    } finally {
      await tab.context().close()
    }
  }, 60_000)
})

import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { expect, type ExpectStatic } from 'vitest'
import { exampleBuild } from '../support/example-build.js'
import { audit } from './axe-audit.js'
import { launchChromium } from './chromium.js'
import { serveDirectory } from './static-server.js'

/**
 * examples/react-support as its Chromium suites open it (browser.test.ts, support-tours-browser.test.ts,
 * message-actions-browser.test.ts: one file once, split so that they run in parallel workers, issue
 * 27): its Vite build (built once per state of the sources, test/support/example-build.ts), served
 * on 127.0.0.1, and one Chromium per file; plus the helpers the suites drive it with.
 */
export interface SupportExample {
  readonly browser: Browser
  /** The served page's address, ending in `/`. */
  readonly url: string
  /** The build folder (index.html, assets/): never modified. */
  readonly dist: string
  close: () => Promise<void>
}

/** Where the suites save their screenshots. */
export const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url))

/** Requests for the lazily loaded agent-dialog UI chunk (Vite names it assets/dialog-ui-<hash>.js). */
export const dialogChunk = /\/assets\/dialog-ui-[\w-]+\.js$/

export async function openSupportExample(chromiumPath: string): Promise<SupportExample> {
  const dist = await exampleBuild('react-support')
  const server = await serveDirectory(dist)
  try {
    const browser = await launchChromium(chromiumPath)
    return { browser, url: server.url, dist, close: async () => { await browser.close(); await server.close() } }
  } catch (error) {
    await server.close()
    throw error
  }
}

/**
 * A fresh tab (a browser context of its own) on the example, once its suggestions are drawn.
 * `check`: the test's own expect, for a test that runs concurrently with others.
 */
export async function openTab(example: SupportExample, width: number, options: { dark?: 'media' | 'class'; check?: ExpectStatic; clock?: boolean } = {}): Promise<Page> {
  const context = await example.browser.newContext({
    viewport: { width, height: width > 500 ? 800 : 844 },
    colorScheme: options.dark === 'media' ? 'dark' : 'light',
    permissions: ['clipboard-read', 'clipboard-write'],
  })
  const tab = await context.newPage()
  const errors: string[] = []
  tab.on('pageerror', (error) => errors.push(error.message))
  // A page clock the test can pause: the scripted agent's stream waits on its timers.
  if (options.clock === true) await tab.clock.install()
  await tab.goto(example.url)
  if (options.dark === 'class') await tab.evaluate(() => document.documentElement.classList.add('chatrail-dark'))
  await tab.locator('[data-chatrail-suggestions]').waitFor()
  ;(options.check ?? expect)(errors).toEqual([])
  return tab
}

export async function say(tab: Page, text: string): Promise<void> {
  await tab.getByRole('textbox', { name: 'Message' }).fill(text)
  await tab.keyboard.press('Enter')
}

export const settled = (tab: Page): Promise<void> => tab.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()

/** The brightest channel of an element's computed background (0–255): under 80 is a dark surface. */
export async function darkness(tab: Page, selector: string): Promise<number> {
  const colour = await tab.locator(selector).first().evaluate((el) => getComputedStyle(el).backgroundColor)
  return Math.max(...(colour.match(/\d+/g) ?? ['255']).slice(0, 3).map(Number))
}

/**
 * A screenshot under test-output/ and no axe violation in it. `pausedClock`: the page's timers are
 * paused (`tab.clock`), and axe waits on one: step the clock until the audit is done.
 */
export async function captureState(tab: Page, state: string, pausedClock = false): Promise<void> {
  mkdirSync(outputDir, { recursive: true })
  await tab.screenshot({ path: `${outputDir}react-actions-${state}.png` })
  let done = false
  const violations = audit(tab, state).finally(() => { done = true })
  while (pausedClock && !done) await tab.clock.runFor(2)
  expect(await violations).toEqual([])
}

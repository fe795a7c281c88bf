import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { exampleBuild } from '../support/example-build.js'
import { findChromium, launchChromium } from './chromium.js'
import { serveDirectory } from './static-server.js'

// Issue 31 item 7, "one focus ring, not two": for each kind of focusable part of examples/react-support,
// focused from the keyboard in Chromium, the rings drawn are counted: an outline on the element or on
// any ancestor, and any box-shadow on them that the focus changed. Exactly one each. And item 12's
// spacing: one gap between all consecutive messages, and no empty row under any message but the last reply.
const chromiumPath = findChromium()
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url))

/** The rings around the focused element: visible outlines on it and its ancestors, plus box-shadows that differ from `before`. */
function ringsOf(target: Locator, before: string[]): Promise<string[]> {
  return target.evaluate((element, shadowsBefore) => {
    const rings: string[] = []
    let node: Element | null = element
    for (let depth = 0; node !== null; depth += 1, node = node.parentElement) {
      const style = getComputedStyle(node)
      const name = `${node.tagName.toLowerCase()}${[...node.attributes].filter((a) => a.name.startsWith('data-chatrail')).map((a) => `[${a.name}]`).join('')}`
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) rings.push(`outline on ${name}`)
      if (style.boxShadow !== (shadowsBefore[depth] ?? 'none')) rings.push(`box-shadow on ${name}`)
    }
    return rings
  }, before)
}

function shadowsOf(target: Locator): Promise<string[]> {
  return target.evaluate((element) => {
    const shadows: string[] = []
    for (let node: Element | null = element; node !== null; node = node.parentElement) shadows.push(getComputedStyle(node).boxShadow)
    return shadows
  })
}

/** Tabs until `target` has the focus (keyboard focus, so `:focus-visible` applies); at most 40 presses. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let press = 0; press < 40; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  throw new Error('Tab never reached the element')
}

const title = chromiumPath === undefined
  ? 'one focus ring and even gaps in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'one focus ring and even gaps in chromium (1280 px)'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: Awaited<ReturnType<typeof serveDirectory>>

  beforeAll(async () => {
    // the example's build shared with its other suites (built once per state of the sources)
    server = await serveDirectory(await exampleBuild('react-support'))
    browser = await launchChromium(chromiumPath as string)
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('a chip, the textarea, Send, a message action, an event button, a dialog card and its option each show one ring', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(server.url)
      await page.locator('[data-chatrail-suggestion]').first().waitFor()
      const found: Record<string, string[]> = {}
      const measure = async (name: string, target: Locator): Promise<void> => {
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
        const before = await shadowsOf(target)
        await tabTo(page, target)
        found[name] = await ringsOf(target, before)
      }
      await measure('chip', page.locator('[data-chatrail-suggestion]').first())
      const box = page.getByRole('textbox', { name: 'Message' })
      await measure('textarea', box)
      await box.fill('hello there')
      await measure('send', page.locator('[data-chatrail-send]'))
      await page.keyboard.press('Enter')
      await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
      await page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').waitFor()
      await measure('message action', page.locator('[data-chatrail-message][data-chatrail-role="assistant"] [data-chatrail-copy]').last())
      const eventButton = page.locator('[data-chatrail-event-button]').first()
      if (await eventButton.count() > 0) await measure('event button', eventButton)
      // A card takes the focus as it arrives (programmatically: `:focus`, not `:focus-visible`).
      await box.fill('before you start, ask me about my subscription')
      await page.keyboard.press('Enter')
      const card = page.locator('[data-chatrail-dialog-state="pending"]')
      await card.waitFor()
      await expect.poll(() => card.evaluate((element) => element === document.activeElement), { timeout: 10_000 }).toBe(true)
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      const cardShadows = await shadowsOf(card)
      await card.evaluate((element: HTMLElement) => element.focus())
      found.card = await ringsOf(card, cardShadows)
      await measure('dialog option', card.getByRole('radio').first())
      mkdirSync(outputDir, { recursive: true })
      await page.screenshot({ path: `${outputDir}react-focus-ring-1280.png` })
      expect(Object.fromEntries(Object.entries(found).map(([name, rings]) => [name, rings.length])), JSON.stringify(found, null, 1))
        .toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, 1])))
    } finally {
      await page.close()
    }
  })

  it('between every two messages the same gap, and no message but the last reply has a row under its bubble', { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    try {
      await page.goto(server.url)
      const box = page.getByRole('textbox', { name: 'Message' })
      for (const [index, text] of ['hello there', 'what can you do?', 'thanks'].entries()) {
        await box.fill(text)
        await page.keyboard.press('Enter')
        await expect.poll(() => page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').count(), { timeout: 10_000 }).toBe(index + 1)
        await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
      }
      await page.mouse.move(0, 0)
      const boxes = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-chatrail-message]')].map((article) => {
        const outer = article.getBoundingClientRect()
        const bubble = (article.querySelector('[data-chatrail-content]') as HTMLElement).getBoundingClientRect()
        return { top: outer.top, bottom: outer.bottom, belowBubble: Math.round(outer.bottom - bubble.bottom) }
      }))
      expect(boxes).toHaveLength(6)
      const gaps = boxes.slice(1).map((next, i) => Math.round(next.top - (boxes[i]?.bottom ?? 0)))
      expect(gaps).toEqual([12, 12, 12, 12, 12])
      // The floating actions take no room; the last reply's row is in the flow (and shown).
      expect(boxes.map((entry) => entry.belowBubble)).toEqual([0, 0, 0, 0, 0, 30])
      mkdirSync(outputDir, { recursive: true })
      await page.screenshot({ path: `${outputDir}react-message-gaps-1280.png` })
    } finally {
      await page.close()
    }
  })
})

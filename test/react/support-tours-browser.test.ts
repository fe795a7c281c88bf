import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest'
import { audit } from './axe-audit.js'
import { findChromium } from './chromium.js'
import { darkness, openSupportExample, openTab, outputDir, say, settled, type SupportExample } from './support-example.js'

// Issue 21: what a person sees in examples/react-support, in both themes and at both widths, each
// state screenshotted and audited by axe-core; and issue #31 item 9, the versions of a message
// ("‹ 1/2 ›") at the same widths and themes. A file of its own (from browser.test.ts) so that it
// runs beside the example's other suites in parallel workers.
const chromiumPath = findChromium()
const title = chromiumPath === undefined
  ? 'examples/react-support tours in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'examples/react-support tours in chromium: every theme and width'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let example: SupportExample
  beforeAll(async () => { example = await openSupportExample(chromiumPath as string) }, 60_000)
  afterAll(async () => { await example?.close() })

  /**
   * Every state of issue 21's list, each screenshotted and audited; returns the violations.
   * `expect` is the running test's own: the tours run concurrently, and vitest's global expect
   * (expect.poll) cannot tell which test it belongs to.
   */
  async function tour(expect: ExpectStatic, width: number, dark?: 'media' | 'class'): Promise<string[]> {
    const tab = await openTab(example, width, { dark, check: expect })
    const name = `react-${width}-${dark === undefined ? 'light' : 'dark'}`
    const violations: string[] = []
    mkdirSync(outputDir, { recursive: true })
    const capture = async (state: string): Promise<void> => {
      await tab.screenshot({ path: `${outputDir}${name}-${state}.png` })
      violations.push(...await audit(tab, `${name} ${state}`))
    }
    try {
      await capture('first-screen')
      await tab.getByRole('button', { name: /^\/start/ }).click()
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
      await say(tab, 'it is order #12345')
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor()
      await settled(tab)
      await capture('deterministic')
      await say(tab, 'show me the options as markdown')
      await tab.locator('[data-chatrail-code]').waitFor()
      // The highlighter chunk is in: axe audits the token colours in light and dark.
      await tab.locator('pre[data-chatrail-highlighted]').waitFor()
      await settled(tab)
      await capture('markdown')
      await say(tab, 'ask me about my subscription')
      const card = tab.getByRole('region', { name: 'The agent asks' })
      await card.waitFor()
      await capture('dialog-pending')
      await card.getByText('Pro', { exact: true }).click()
      await card.getByRole('button', { name: 'Answer' }).click()
      await settled(tab)
      await capture('dialog-answered')
      await say(tab, 'tell me the long story')
      await tab.locator('[data-chatrail-message]').filter({ hasText: 'Step 2' }).waitFor()
      await tab.keyboard.press('Escape')
      await tab.locator('[data-chatrail-stopped]').waitFor()
      await capture('stopped')
      await say(tab, 'ask me once more')
      await tab.getByRole('region', { name: 'The agent asks' }).waitFor()
      await tab.getByRole('button', { name: 'Stop' }).click()
      await tab.locator('[data-chatrail-dialog-state="dismissed"]').waitFor()
      await capture('dialog-dismissed')
      await say(tab, 'make a plan for it')
      const plan = tab.getByRole('region', { name: 'The agent proposes a plan' })
      await plan.waitFor()
      await capture('plan-pending')
      await plan.getByRole('button', { name: 'Approve plan' }).click()
      await settled(tab)
      await say(tab, 'this will fail')
      await tab.getByRole('alert').waitFor()
      await settled(tab)
      await capture('error')
      // One way to ask again after a failure (issue #31 item 6): the banner's Retry, nothing in the composer or on the reply.
      expect(await tab.getByRole('button', { name: /^(Retry|Regenerate|Try again)$/ }).evaluateAll((buttons) => buttons.map((button) => button.closest('[data-chatrail-error]') !== null))).toEqual([true])
      // What happened over what to do, in one column; Retry beside them (at 390 px the hint used to be a narrow column of its own).
      expect(await tab.locator('[data-chatrail-error]').evaluate((banner) => {
        const box = (selector: string): DOMRect => (banner.querySelector(selector) as HTMLElement).getBoundingClientRect()
        const [message, hint, retry] = [box('[data-chatrail-error-message]'), box('[data-chatrail-error-hint]'), box('[data-chatrail-error-retry]')]
        return [hint.top >= message.bottom - 1, retry.left >= Math.max(message.right, hint.right) - 1]
      })).toEqual([true, true])
      if (dark !== undefined) expect(await darkness(tab, '[data-chatrail-error]')).toBeLessThan(80)
      await tab.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Reship it' }).click()
      await tab.locator('[data-chatrail-state-badge][data-chatrail-final]').waitFor()
      await settled(tab)
      // The end: a Start over action (the restart the final state offers), reached by keyboard.
      const startOver = tab.getByRole('group', { name: 'Conversation ended' }).getByRole('button', { name: 'Start over' })
      await startOver.waitFor()
      await capture('final-start-over')
      if (dark !== undefined) {
        // Dark all the way through: the parts that used to stay light (error banner above, textarea, list) are dark,
        // and the final badge's chip is the dark theme's green, not the light one's.
        expect(await darkness(tab, '[data-chatrail-input]')).toBeLessThan(80)
        expect(await darkness(tab, '[data-chatrail-message-list]')).toBeLessThan(80)
        expect(await tab.locator('[data-chatrail-state-name]').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(74, 194, 107)')
      }
      await tab.getByRole('textbox', { name: 'Message' }).focus()
      await tab.keyboard.press('Shift+Tab')
      expect(await startOver.evaluate((el) => el === document.activeElement)).toBe(true)
      await tab.keyboard.press('Enter')
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="greeting"]:not([data-chatrail-final])').waitFor()
      await settled(tab)
      // The conversation carries on from `initial`: its chips are back, the focus is in the composer.
      await tab.locator('[data-chatrail-restarted] [data-chatrail-suggestions]').waitFor()
      await expect.poll(() => tab.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 10_000 }).toBe('Message')
      expect(await tab.getByRole('group', { name: 'Conversation ended' }).count()).toBe(0)
      await capture('after-start-over')
    } finally {
      await tab.context().close()
    }
    return violations
  }

  // The four tours run at once, each in its own browser context (a page of its own, no state shared
  // with the other tests' page): most of a tour is waiting for a streamed reply, which overlaps, and
  // chromium audits the tabs in their own renderer processes. One after another they took ~60 s.
  it.concurrent.for([
    [1280, undefined],
    [1280, 'media'],
    [390, undefined],
    [390, 'class'],
  ] as const)('axe finds no violation in any state at %i px (dark: %s), each state saved under test-output/', { timeout: 120_000 }, async ([width, dark], { expect }) => {
    expect(await tour(expect, width, dark)).toEqual([])
  })

  // ---- issue #31 item 9: versions of a message, "‹ 1/2 ›" ----

  it.concurrent.for([
    [1280, undefined],
    [1280, 'media'],
    [390, undefined],
    [390, 'class'],
  ] as const)('versions at %i px (dark: %s), keyboard only: Regenerate keeps the first answer, the picker switches back and forth, focus kept, axe clean', { timeout: 90_000 }, async ([width, dark], { expect }) => {
    const tab = await openTab(example, width, { dark, check: expect })
    const name = `react-versions-${width}-${dark === undefined ? 'light' : 'dark'}`
    mkdirSync(outputDir, { recursive: true })
    const violations: string[] = []
    const capture = async (state: string): Promise<void> => {
      await tab.screenshot({ path: `${outputDir}${name}-${state}.png` })
      violations.push(...await audit(tab, `${name} ${state}`))
    }
    try {
      await say(tab, 'hello there')
      await settled(tab)
      const replyTexts = (): Promise<Array<string | null>> => tab.locator('[data-chatrail-message][data-chatrail-role="assistant"] [data-chatrail-content]').evaluateAll((els) => els.map((el) => el.textContent))
      const first = await replyTexts()
      const focused = (): Promise<string> => tab.evaluate(() => {
        const active = document.activeElement as HTMLElement
        return `${active.closest('[data-chatrail-message]')?.getAttribute('data-chatrail-role') ?? '-'}: ${active.getAttribute('aria-label') ?? active.textContent ?? ''}`
      })
      // Regenerate by keyboard: Tab from the log to it, Enter.
      await tab.getByRole('log').focus()
      for (let step = 0; step < 4; step += 1) await tab.keyboard.press('Tab')
      expect(await focused()).toBe('assistant: Regenerate')
      await tab.keyboard.press('Enter')
      await settled(tab)
      const picker = tab.getByRole('group', { name: 'Versions' })
      await picker.waitFor()
      expect(await picker.count()).toBe(1)
      expect(await picker.innerText()).toMatch(/2\/2/)
      await capture('two-versions')
      // The picker leads the reply's row, in the Tab order.
      await tab.getByRole('log').focus()
      const path: string[] = []
      for (let step = 0; step < 6; step += 1) {
        await tab.keyboard.press('Tab')
        path.push(await focused())
      }
      expect(path).toEqual(['user: Copy message', 'user: Edit message', 'assistant: Previous version', 'assistant: Next version', 'assistant: Copy message', 'assistant: Regenerate'])
      await tab.getByRole('log').focus()
      for (let step = 0; step < 3; step += 1) await tab.keyboard.press('Tab')
      await tab.keyboard.press('Enter')
      await expect.poll(() => picker.innerText()).toMatch(/1\/2/)
      // The first answer is back, the focus on the same button of the reply now shown.
      expect(await replyTexts()).toEqual(first)
      expect(await focused()).toBe('assistant: Previous version')
      expect(await tab.evaluate(() => document.activeElement?.getAttribute('aria-disabled'))).toBe('true')
      // The row stays inside the width: no sideways scroll.
      expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await capture('first-version')
      await tab.keyboard.press('Tab')
      expect(await focused()).toBe('assistant: Next version')
      await tab.keyboard.press('Enter')
      await expect.poll(() => picker.innerText()).toMatch(/2\/2/)
      expect(await focused()).toBe('assistant: Next version')
      expect(await tab.locator('[data-chatrail-message]').count()).toBe(2)
    } finally {
      await tab.context().close()
    }
    expect(violations).toEqual([])
  })
})

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../react/axe-audit.js'
import { findChromium } from '../react/chromium.js'
import { openExample, type ExamplePage } from '../bindings/example-page.js'

// examples/vue-support (Vite + @vitejs/plugin-vue, the support-bot workflow over chatrail/vue)
// built with Vite's JS API, served on 127.0.0.1 and driven in Debian's chromium at a phone width.
// The bindings' behaviour is the scenario suite's (test/bindings/); this checks that the example
// builds with an app's toolchain and runs. Skipped (with this reason) only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const title = chromiumPath === undefined
  ? 'examples/vue-support in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'examples/vue-support in chromium (390 px)'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let example: ExamplePage | undefined
  let page: Page

  beforeAll(async () => {
    example = await openExample('vue-support', chromiumPath as string, { viewport: { width: 390, height: 844 }, hasTouch: true })
    page = example.page
  }, 60_000)

  afterAll(async () => {
    await example?.close()
    expect(example?.errors).toEqual([])
  })

  const calls = async (): Promise<number> => Number(await page.getByTestId('agent-calls').textContent())
  const lastReply = () => page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last().locator('[data-chatrail-content]')
  async function turn(text: string): Promise<void> {
    const before = await page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').count()
    await page.getByRole('textbox', { name: 'Message' }).fill(text)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').count()).toBeGreaterThan(before)
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
  }

  it('the first screen: the greeting, the support bot\'s chips, the status line; no accessibility violation', async () => {
    expect(await page.getByRole('region', { name: 'Support chat' }).count()).toBe(1)
    expect(await page.locator('[data-chatrail-greeting]').innerText()).toBe('Hi! How can I help with your order?')
    expect(await page.getByRole('list', { name: 'Suggestions' }).getByRole('button').count()).toBeGreaterThan(1)
    expect(await page.locator('[data-chatrail-state-badge]').innerText()).toBe('Welcome Ready')
    expect(await audit(page, 'vue-support first screen')).toEqual([])
  })

  it('a command and an order number are deterministic; free text reaches the scripted agent', async () => {
    await turn('/start')
    await turn('#12345')
    expect(await page.locator('[data-chatrail-state-badge]').getAttribute('data-chatrail-state')).toBe('confirming')
    expect(await lastReply().innerText()).toContain('Order #12345')
    expect(await calls()).toBe(0)
    await turn('is it insured?')
    expect(await page.locator('[data-chatrail-state-badge]').getAttribute('data-chatrail-turn-kind')).toBe('agentic')
    expect(await lastReply().innerText()).toContain('(agent) I looked into')
    expect(await calls()).toBe(1)
    expect(await audit(page, 'vue-support conversation')).toEqual([])
  })

  it('a tool call that needs confirmation shows as a card with Approve; approved, the agent goes on', async () => {
    await page.getByRole('textbox', { name: 'Message' }).fill('please refund the shipping')
    await page.keyboard.press('Enter')
    const card = page.getByRole('region', { name: 'Tool refund_order' })
    await card.getByRole('button', { name: 'Approve' }).click({ timeout: 15_000 })
    await expect.poll(() => lastReply().innerText(), { timeout: 15_000 }).toContain('the shipping fee is refunded')
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    expect(await page.getByRole('region', { name: 'Tool lookup_order' }).getAttribute('data-chatrail-tool-status')).toBe('complete')
    expect(await audit(page, 'vue-support tool cards')).toEqual([])
  })

  it('holds its layout at 390 px: no sideways scroll', async () => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  })
})

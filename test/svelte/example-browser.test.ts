import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../react/axe-audit.js'
import { findChromium } from '../react/chromium.js'
import { openExample, type ExamplePage } from '../bindings/example-page.js'

// examples/svelte-support built with Vite's JS API (@sveltejs/vite-plugin-svelte, as an app builds
// it), served on 127.0.0.1 and driven in Debian's chromium: the support-bot workflow runs on
// chatrail/svelte. Skipped only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const title = chromiumPath === undefined
  ? 'examples/svelte-support in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'examples/svelte-support in chromium'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let example: ExamplePage | undefined
  let page: Page

  beforeAll(async () => {
    example = await openExample('svelte-support', chromiumPath as string, { viewport: { width: 390, height: 844 } })
    page = example.page
  }, 60_000)

  afterAll(async () => {
    await example?.close()
    expect(example?.errors).toEqual([])
  })

  const calls = async (): Promise<number> => Number(await page.getByTestId('agent-calls').textContent())
  const lastReply = (): Promise<string> => page.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last().locator('[data-chatrail-content]').innerText()
  async function send(text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill(text)
    await page.keyboard.press('Enter')
  }
  const idle = () => page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()

  it('greets with the support bot\'s suggestions, and a command runs its route without the agent', async () => {
    expect(await page.locator('[data-chatrail-greeting]').innerText()).toBe('Hi! How can I help with your order?')
    await page.getByRole('list', { name: 'Suggestions' }).waitFor()
    await send('/start')
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
    await idle()
    expect(await page.locator('[data-chatrail-state-badge]').innerText()).toBe('Order lookup Ready')
    expect(await calls()).toBe(0)
  })

  it('an order number moves to the confirmation, whose event button reships; still no agent call', async () => {
    await send('#12345')
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor()
    await idle()
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Reship it' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="resolved"]').waitFor()
    await idle()
    expect(await page.getByRole('group', { name: 'Conversation ended' }).isVisible()).toBe(true)
    expect(await calls()).toBe(0)
  })

  it('after Start over, free text reaches the scripted agent; a plan is approved from its card', async () => {
    await page.getByRole('button', { name: 'Start over' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="greeting"]').waitFor()
    await idle()
    await send('please make a plan')
    const card = page.locator('[data-chatrail-dialog-state="pending"][data-chatrail-dialog-kind="plan"]')
    await card.waitFor()
    expect(await calls()).toBe(1)
    await card.getByRole('button', { name: 'Approve plan' }).click()
    await page.getByRole('group', { name: 'Plan (answered)' }).waitFor()
    await idle()
    expect(await lastReply()).toContain('the plan is approved')
    // the polite live region reads the finished reply once, whole (the list itself is aria-live=off)
    expect(await page.locator('[data-chatrail-announcer]').innerText()).toContain('the plan is approved')
    expect(await audit(page, '390 light, after a plan')).toEqual([])
  })

  it('a tool call that needs approval is a card with Approve; approved, the tool runs and the agent answers', async () => {
    await send('I want a refund')
    const card = page.getByRole('region', { name: 'Tool refund_order' })
    await card.getByRole('button', { name: 'Approve' }).click()
    await page.locator('[data-chatrail-tool-card][data-chatrail-tool-status="complete"]', { hasText: 'refund_order' }).waitFor()
    await idle()
    expect(await lastReply()).toContain('Done: the shipping fee is refunded')
    expect(await page.getByRole('region', { name: 'Tool lookup_order' }).first().getAttribute('data-chatrail-tool-status')).toBe('complete')
    expect(await audit(page, '390 light, after the tools')).toEqual([])
    expect(example?.errors).toEqual([])
  })
})

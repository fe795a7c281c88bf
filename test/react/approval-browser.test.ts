import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { createChatHandler, createStoredConfirmation, toNodeHandler } from '../../src/server/index.js'
import { confirmationLedgerOf, memoryStore, type ConversationStore } from '../../src/store/index.js'
import { createRefundDesk } from '../../examples/refund-desk/definition.js'
import { findChromium, launchChromium } from './chromium.js'
import { audit } from './axe-audit.js'
import { buildTestPage, serveTestPage, type TestPageServer } from './page-server.js'

// Issue 30's proof in Debian's chromium, against the real handler and a memory store: the refund
// desk's route answers with a choice list; the choice's typed action proposes a refund and the
// answer's approval request is bound to the record through the server's endpoints. Clicking
// twice, reloading and clicking again, and approving after expiry never refund twice; axe-core
// finds nothing at 1280 and 390 px, light and dark.
const chromiumPath = findChromium()
const pageDir = fileURLToPath(new URL('../../test-output/approval-page/', import.meta.url))
const title = chromiumPath === undefined
  ? 'approval requests in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'approval requests bound to confirmation records in chromium, against createChatHandler'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: TestPageServer | undefined
  let store: ConversationStore
  let origin: string
  // the server's clock: the test moves it past a proposal's expiry (the page's own clock is real)
  const clock = { now: Date.UTC(2030, 0, 1, 9) }
  const refunds: string[] = []
  const pageErrors: string[] = []
  const refundTool: ToolDefinition = { name: 'refund', requiresConfirmation: true, execute: (input) => void refunds.push(String(input.order)) }

  beforeAll(async () => {
    await buildTestPage({ entry: new URL('./approval-page/main.tsx', import.meta.url), outdir: pageDir, html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>approvals</title><link rel="stylesheet" href="/main.css"><style>html, body, #root { height: 100%; margin: 0 }</style></head><body><header><h1 style="position:absolute;left:-9999px">Approval requests</h1></header><main id="root"></main><script type="module" src="/main.js"></script></body></html>' })
    store = memoryStore()
    const { definition } = createRefundDesk({ refund: (order) => refunds.push(order), capabilities: () => ['billing:write'], ledger: confirmationLedgerOf(store), now: () => clock.now })
    const handler = toNodeHandler(createChatHandler({ definition, store, authenticate: 'none', clock: () => clock.now, confirmations: { tools: [refundTool] } }))
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
  /** `/refund`, then the Refund choice: the answer's approval request, once its record is read. */
  async function proposeRefund(page: Page): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill('/refund')
    await page.keyboard.press('Enter')
    const refund = page.getByRole('listbox', { name: 'What should we do?' }).getByRole('option', { name: /Refund 40 EUR/ })
    await refund.waitFor({ timeout: 15_000 })
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    await refund.click()
    await refund.click({ force: true })
    await page.locator('[data-chatrail-approval-bound="ready"]').waitFor({ timeout: 15_000 })
    await page.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
  }
  const records = async (conversation: string) => (await confirmationLedgerOf(store).listConfirmations(conversation))
  const stateOf = (page: Page) => page.locator('[data-chatrail-approval-bound] [data-chatrail-approval-state]').getAttribute('data-chatrail-approval-state')

  it('a double click on the choice proposes once; a double click on Approve refunds once; a reload shows Approved and no buttons', async () => {
    const before = refunds.length
    const page = await open('approvals-1')
    try {
      await proposeRefund(page)
      expect((await records('approvals-1')).map((record) => record.status)).toEqual(['pending'])
      const approve = page.getByRole('button', { name: 'Approve' })
      await approve.click()
      await approve.click({ force: true, timeout: 2_000 }).catch(() => undefined) // disabled, or gone, once the first is sent
      await page.locator('[data-chatrail-approval-state="approved"]').waitFor({ timeout: 15_000 })
      expect(refunds.length - before).toBe(1)
    } finally {
      await page.context().close()
    }
    const again = await open('approvals-1')
    try {
      await again.locator('[data-chatrail-approval-bound="ready"]').waitFor({ timeout: 15_000 })
      expect(await stateOf(again)).toBe('approved')
      expect(await again.getByRole('button', { name: 'Approve' }).count()).toBe(0)
      // a stale tab's approval (straight to the endpoint) finds the record decided
      const answer = await again.evaluate(async (token) => (await fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'approvals-1', action: 'approve-action', token }) })).json(), (await records('approvals-1'))[0]?.token ?? '')
      expect(answer).toMatchObject({ confirmation: { status: 'approved' } })
      expect(refunds.length - before).toBe(1)
    } finally {
      await again.context().close()
    }
  }, 120_000)

  it('two tabs with the card open: both approve, one refund', async () => {
    const before = refunds.length
    const first = await open('approvals-2')
    const second = await open('approvals-2')
    try {
      await proposeRefund(first)
      await second.reload()
      await second.locator('[data-chatrail-approval-bound="ready"]').waitFor({ timeout: 15_000 })
      await Promise.all([first.getByRole('button', { name: 'Approve' }).click(), second.getByRole('button', { name: 'Approve' }).click()])
      await first.locator('[data-chatrail-approval-state="approved"]').waitFor({ timeout: 15_000 })
      await second.locator('[data-chatrail-approval-state="approved"]').waitFor({ timeout: 15_000 })
      expect(refunds.length - before).toBe(1)
    } finally {
      await first.context().close()
      await second.context().close()
    }
  }, 60_000)

  it('a record the app proposed outside any message is a card in <PendingApprovals>; approving it refunds once', async () => {
    const before = refunds.length
    await createStoredConfirmation({ store, conversationId: 'approvals-4', tools: [refundTool], clock: () => clock.now }).propose({ name: 'refund', input: { order: 'B-2' } })
    const page = await open('approvals-4')
    try {
      const panel = page.getByRole('region', { name: 'Actions waiting for approval' })
      await panel.getByRole('button', { name: 'Approve' }).click({ timeout: 15_000 })
      await panel.locator('[data-chatrail-approval-state="approved"]').waitFor({ timeout: 15_000 })
      expect(refunds.slice(before)).toEqual(['B-2'])
      expect(await audit(page, 'pending approvals panel')).toEqual([])
    } finally {
      await page.context().close()
    }
  }, 60_000)

  it('a card left open past the expiry: Approve expires the record and refunds nothing', async () => {
    const before = refunds.length
    const page = await open('approvals-3')
    try {
      await proposeRefund(page)
      const [record] = await records('approvals-3')
      clock.now = (record?.expiresAt ?? clock.now) + 1
      await page.getByRole('button', { name: 'Approve' }).click()
      await page.locator('[data-chatrail-approval-state="expired"]').waitFor({ timeout: 15_000 })
      expect((await records('approvals-3')).map((found) => found.status)).toEqual(['expired'])
      expect(refunds.length - before).toBe(0)
    } finally {
      await page.context().close()
    }
  }, 60_000)

  it.for([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const)('axe finds no violation at %i px (%s), pending and approved; nothing wider than the page', { timeout: 60_000 }, async ([width, scheme]) => {
    const page = await open(`approvals-axe-${width}-${scheme}`, width, scheme)
    try {
      await proposeRefund(page)
      const violations = await audit(page, `${width} ${scheme} pending`)
      await page.getByRole('button', { name: 'Approve' }).click()
      await page.locator('[data-chatrail-approval-state="approved"]').waitFor({ timeout: 15_000 })
      violations.push(...await audit(page, `${width} ${scheme} approved`))
      expect(violations).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      await page.screenshot({ path: `${pageDir}${width}-${scheme}.png` })
      expect(pageErrors).toEqual([])
    } finally {
      await page.context().close()
    }
  })
})

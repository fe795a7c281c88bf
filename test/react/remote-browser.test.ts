import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScriptedAgent, type ScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { createChatHandler, toNodeHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { findChromium, launchChromium } from './chromium.js'
import { buildTestPage, serveTestPage, type TestPageServer } from './page-server.js'
import { remoteDefinition } from './remote-page/remote-definition.js'

// chatrail/react's remote mode (<RemoteChatSession>, useRemoteChatSession over httpAdapter) in
// Debian's chromium against the real handler (createChatHandler, memory store) on 127.0.0.1; the
// page is built with esbuild and served by the same node:http server (same origin as /api/chat).
// Skipped (with this reason) only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const pageDir = fileURLToPath(new URL('../../test-output/remote-page/', import.meta.url))
const title = chromiumPath === undefined
  ? 'chatrail/react remote mode in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'chatrail/react remote mode in chromium, against createChatHandler'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let page: Page
  let server: TestPageServer | undefined
  let store: ConversationStore
  let agent: ScriptedAgent
  let origin: string
  const pageErrors: string[] = []

  beforeAll(async () => {
    await buildTestPage({ entry: new URL('./remote-page/main.tsx', import.meta.url), outdir: pageDir, html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>remote</title></head><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>' })
    store = memoryStore()
    agent = createScriptedAgent({ chunkDelayMs: 5 })
    const handler = toNodeHandler(createChatHandler({ definition: remoteDefinition(agent), store, authenticate: 'none' }))
    server = await serveTestPage(pageDir, handler)
    origin = server.origin
    browser = await launchChromium(chromiumPath as string)
    page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${origin}/?c=browser-1`)
    await page.locator('[data-chatrail-state-badge]').waitFor()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await store?.close()
  })

  const badge = (target: Page = page) => target.locator('[data-chatrail-state-badge]')
  const lastReply = (target: Page = page) => target.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last()
  const idle = (target: Page = page) => target.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
  async function send(text: string, target: Page = page): Promise<void> {
    await target.getByRole('textbox', { name: 'Message' }).fill(text)
    await target.keyboard.press('Enter')
  }

  it('a deterministic turn runs on the server and advances the badge; the agent is not called', async () => {
    expect(await badge().getAttribute('data-chatrail-state')).toBe('idle')
    await send('/start')
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="asking"]').waitFor()
    await idle()
    expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('deterministic')
    expect(await lastReply().innerText()).toContain('Which day?')
    expect(agent.calls()).toBe(0)
    expect((await store.load('browser-1'))?.messages.map((message) => message.content)).toEqual(['/start', 'Which day?'])
  })

  it('an event button sends its UI event to the server and the badge follows', async () => {
    await page.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="idle"]').waitFor()
    await idle()
    expect(await lastReply().innerText()).toContain('Cancelled.')
    const stored = (await store.load('browser-1'))?.messages ?? []
    expect(stored.at(-2)?.metadata).toEqual({ chatrail: { event: 'cancel' } })
  })

  it('free text reaches the agentic fallback on the server', async () => {
    await send('where is my parcel')
    // wait for the answer itself: the chat may still read idle the moment after Enter
    await expect.poll(async () => lastReply().innerText(), { timeout: 15_000 }).toContain('your request is logged')
    await idle()
    expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('agentic')
    expect(agent.calls()).toBe(1)
  })

  it('a pending dialog card arrives from the server and is answered through it', async () => {
    await send('please ask me about my subscription')
    const card = page.getByRole('region', { name: 'The agent asks' })
    await card.waitFor({ timeout: 15_000 })
    await card.getByText('Pro', { exact: true }).click()
    await card.getByRole('button', { name: 'Answer' }).click()
    await page.locator('[data-chatrail-dialog-state="answered"]').waitFor({ timeout: 15_000 })
    await idle()
    await expect.poll(async () => lastReply().innerText(), { timeout: 15_000 }).toContain('Thanks — Pro')
    expect(agent.calls()).toBe(2)
  })

  it('a reload restores the conversation and the state from the server', async () => {
    const before = await page.locator('[data-chatrail-message]').count()
    const tab = await browser.newPage()
    try {
      await tab.goto(`${origin}/?c=browser-1`)
      await tab.locator('[data-chatrail-message]').nth(before - 1).waitFor()
      expect(await tab.locator('[data-chatrail-message]').count()).toBe(before)
      expect(await badge(tab).getAttribute('data-chatrail-state')).toBe('idle')
      await send('/start', tab)
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="asking"]').waitFor()
      await tab.getByRole('button', { name: 'Tomorrow' }).click()
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="booked"][data-chatrail-final]').waitFor()
    } finally {
      await tab.close()
    }
    expect(pageErrors).toEqual([])
  })
})

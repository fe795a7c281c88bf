import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createScriptedAgent, type ScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { buildServePage } from '../../src/cli/serve/build-page.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { startServeHttp, type RunningServer } from '../../src/cli/serve/serve-http.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import type { PageFiles } from '../../src/cli/serve/page-files.js'
import { findChromium, launchChromium } from '../react/chromium.js'
import { audit } from '../react/axe-audit.js'

// Issue 17, `chatrail serve`'s page: the React example's chat (chatrail/react through
// <RemoteChatSession>) in Debian's chromium against the handler on 127.0.0.1, served by the same
// HTTP server `chatrail serve` runs (the page as renderers/serve-page builds it with esbuild). Its
// agentic fallback is examples/react-support's scripted agent, which counts its calls (and, here,
// its aborts) in this process. Skipped (with this reason) only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url))
const title = chromiumPath === undefined
  ? 'the chatrail serve page in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'the chatrail serve page (chatrail/react, remote mode) in chromium'

const START_ANSWER = 'Sure. What is your order number? (for example #12345)'

/** axe-core's default rules (WCAG 2 A/AA and best practices) on the page; one line per violating node. */
describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let server: RunningServer
  let agent: ScriptedAgent
  let files: PageFiles
  let aborts = 0
  const store = memoryStore()
  const pageErrors: string[] = []

  beforeAll(async () => {
    // The scripted agent, with its aborts counted: a Stop must reach the agent on the server.
    const scripted = createScriptedAgent({ chunkDelayMs: 5 })
    agent = {
      ...scripted,
      createSource: (request) => {
        const source = scripted.createSource(request)
        return { stream: () => source.stream(), abort: () => { aborts += 1; source.abort() } }
      },
    }
    const definition = createSupportBot(agent)
    const handler = createChatHandler({ definition, store, authenticate: 'none' })
    files = await buildServePage()
    server = await startServeHttp({ handler, page: files, pageConfig: pageConfigOf(definition), authenticate: 'none', host: '127.0.0.1', port: 0 })
    browser = await launchChromium(chromiumPath as string)
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['clipboard-read', 'clipboard-write'] })
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${server.url}/`)
    await page.locator('[data-chatrail-suggestions]').waitFor()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await store.close()
  })

  const badge = (target: Page = page) => target.locator('[data-chatrail-state-badge]')
  const conversationId = (target: Page = page): string => new URL(target.url()).searchParams.get('c') ?? ''
  const replies = (target: Page = page): Promise<string[]> => target.locator('[data-chatrail-message][data-chatrail-role="assistant"] [data-chatrail-content]').allInnerTexts()
  const lastReply = (target: Page = page) => target.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last()
  const idle = (target: Page = page): Promise<void> => target.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
  const stored = async (target: Page = page) => (await store.load(conversationId(target)))?.messages ?? []
  async function send(text: string, target: Page = page): Promise<void> {
    await target.getByRole('textbox', { name: 'Message' }).fill(text)
    await target.keyboard.press('Enter')
  }

  it('is built without the AI SDK: chatrail/react in remote mode, its lazily loaded parts in their own chunks', () => {
    const main = new TextDecoder().decode(files.get('/assets/page.js')?.contents)
    expect(main).toContain('data-chatrail-remote')
    expect(main).not.toContain('x-vercel-ai-ui-message-stream')
    expect(files.get('/assets/page.css')).toBeDefined()
    expect([...files.keys()].some((path) => /^\/assets\/message-ui-[\w-]+\.js$/.test(path))).toBe(true)
  })

  it('opens on the welcome screen: a new conversation id in ?c=, the state in plain words, a chip per command the state allows', async () => {
    expect(conversationId()).toMatch(/^c-[\w-]+$/)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Support bot')
    expect(await badge().getAttribute('data-chatrail-state')).toBe('greeting')
    expect(await badge().innerText()).toBe('Greeting Ready')
    const chips = await page.getByRole('list', { name: 'Suggestions' }).getByRole('button').allInnerTexts()
    expect(chips.some((chip) => chip.startsWith('/start'))).toBe(true)
    expect(await page.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder')).toBe('Type a message, or /start')
  })

  it('a deterministic turn (the /start chip) runs on the server and advances the badge; the agent is not asked', async () => {
    await page.getByRole('button', { name: /^\/start/ }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
    await idle()
    expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('deterministic')
    expect(await badge().innerText()).toBe('Collecting Ready')
    expect(await replies()).toEqual([START_ANSWER])
    expect(agent.calls()).toBe(0)
    expect((await stored()).map((message) => message.content)).toEqual(['/start', START_ANSWER])
  })

  it('Regenerate replays the deterministic answer from the store with no adapter call', async () => {
    const before = (await stored()).at(-1)?.id
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-replayed]').waitFor()
    await idle()
    expect(await replies()).toEqual([START_ANSWER])
    const after = await stored()
    // A new answer replaced the old one on the server; the state is where it was.
    expect(after.map((message) => message.content)).toEqual(['/start', START_ANSWER])
    expect(after.at(-1)?.id).not.toBe(before)
    expect(await badge().getAttribute('data-chatrail-state')).toBe('collecting')
    expect(agent.calls()).toBe(0)
  })

  it('free text reaches the agentic fallback; its markdown answer renders formatted, with Copy', async () => {
    await send('show me the options as markdown')
    await page.locator('[data-chatrail-code]').waitFor({ timeout: 15_000 })
    await idle()
    expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('agentic')
    expect(await badge().getAttribute('data-chatrail-state')).toBe('collecting')
    expect(await lastReply().locator('table').count()).toBe(1)
    expect(agent.calls()).toBe(1)
    await lastReply().getByRole('button', { name: 'Copy message' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('| Standard | 3–5 days | free |')
  })

  it('a pending dialog (the live agent asks) arrives as a card and is answered through it', async () => {
    await send('before you go on, ask me about my subscription')
    const card = page.getByRole('region', { name: 'The agent asks' })
    await card.waitFor({ timeout: 15_000 })
    expect(await badge().innerText()).toContain('Waiting for your answer')
    await card.getByText('Team', { exact: true }).click()
    await card.getByRole('button', { name: 'Answer' }).click()
    await page.locator('[data-chatrail-dialog-state="answered"]').waitFor({ timeout: 15_000 })
    await idle()
    await expect.poll(async () => lastReply().innerText(), { timeout: 15_000 }).toContain('Thanks — Team')
    expect(agent.calls()).toBe(2)
  })

  it('Stop reaches the turn on the server (POST { action: "stop" }): the agent is aborted, the reply stays partial', async () => {
    await send('tell me the long story')
    await expect.poll(() => lastReply().innerText(), { timeout: 15_000 }).toContain('Step 1:')
    await page.getByRole('button', { name: 'Stop' }).click()
    await page.locator('[data-chatrail-stopped]').waitFor()
    await idle()
    // The stop signal is polled by the turn on the server.
    await expect.poll(() => aborts, { timeout: 15_000 }).toBe(1)
    expect(await lastReply().innerText()).not.toContain('Step 12:')
    expect(agent.calls()).toBe(3)
  })

  it('a reload restores the conversation and its state from the server (GET) under the same id', async () => {
    await send('it is order #12345')
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor({ timeout: 15_000 })
    await idle()
    const address = page.url()
    const before = await page.locator('[data-chatrail-message] [data-chatrail-content]').allInnerTexts()
    expect(before.length).toBeGreaterThanOrEqual(10)
    await page.reload()
    await page.locator('[data-chatrail-message]').nth(before.length - 1).waitFor({ timeout: 15_000 })
    // Answers render as markdown once the lazily loaded message UI arrives (the code block is its mark).
    await page.locator('[data-chatrail-code]').waitFor({ timeout: 15_000 })
    expect(page.url()).toBe(address)
    const restored = await page.locator('[data-chatrail-message] [data-chatrail-content]').allInnerTexts()
    // The restored page shows what the server stored: the same messages, except that the stopped
    // reply may be longer there than it was on the page (the turn ran on until it polled the stop
    // flag, and stored what it had by then).
    expect(restored).toHaveLength(before.length)
    const differing = restored.flatMap((text, index) => (text === before[index] ? [] : [{ text, was: before[index] as string }]))
    expect(differing.length).toBeLessThanOrEqual(1)
    for (const { text, was } of differing) {
      expect(was).toMatch(/^Step 1:/)
      expect(text.startsWith(was)).toBe(true)
    }
    expect(await badge().getAttribute('data-chatrail-state')).toBe('confirming')
    expect(agent.calls()).toBe(3)
    expect(pageErrors).toEqual([])
  })

  it('Edit of a restored message is an edit on the server: the new text is stored and answered, not the old one', async () => {
    const user = page.locator('[data-chatrail-message][data-chatrail-role="user"]').last()
    expect(await user.locator('[data-chatrail-content]').innerText()).toBe('it is order #12345')
    const count = (await stored()).length
    await user.hover()
    await user.getByRole('button', { name: 'Edit message' }).click()
    const box = page.getByRole('textbox', { name: 'Edit message' })
    await box.fill('it is order #54321')
    await box.press('Enter')
    await expect.poll(() => lastReply().innerText(), { timeout: 15_000 }).toContain('Order #54321')
    await idle()
    const contents = (await stored()).map((message) => message.content)
    expect(contents).toHaveLength(count)
    expect(contents.at(-2)).toBe('it is order #54321')
    expect(contents.at(-1)).toMatch(/^Order #54321/)
    expect(await badge().getAttribute('data-chatrail-state')).toBe('confirming')
    expect(agent.calls()).toBe(3)
  })

  it('an event button reaches its event route; the end offers Start over, which starts again from the initial state', async () => {
    await page.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Confirm' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="resolved"][data-chatrail-final]').waitFor({ timeout: 15_000 })
    await idle()
    expect(await badge().innerText()).toBe('Resolved Finished')
    expect((await stored()).at(-2)?.metadata).toEqual({ chatrail: { event: 'confirm' } })
    await page.getByRole('group', { name: 'Conversation ended' }).getByRole('button', { name: 'Start over' }).click()
    await page.locator('[data-chatrail-state-badge][data-chatrail-state="greeting"]:not([data-chatrail-final])').waitFor({ timeout: 15_000 })
    await idle()
    await page.locator('[data-chatrail-restarted] [data-chatrail-suggestions]').waitFor()
    expect(agent.calls()).toBe(3)
    expect(pageErrors).toEqual([])
  })

  it('New conversation opens a fresh one under a new id; the old one stays stored', async () => {
    const old = conversationId()
    await page.getByRole('link', { name: 'New conversation' }).click()
    await page.locator('[data-chatrail-suggestions]').waitFor()
    expect(conversationId()).toMatch(/^c-[\w-]+$/)
    expect(conversationId()).not.toBe(old)
    expect(await page.locator('[data-chatrail-message]').count()).toBe(0)
    expect(await badge().getAttribute('data-chatrail-state')).toBe('greeting')
    expect((await store.load(old))?.messages.length).toBeGreaterThan(10)
    expect(pageErrors).toEqual([])
  })

  // What a person sees, at both widths and in both themes, audited by axe-core and saved under
  // test-output/serve-<width>-<theme>-<state>.png: the first screen, a deterministic answer, a
  // markdown answer, a pending dialog card, the end with Start over.
  it.each([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const)('axe finds no violation at %i px (%s); screenshots under test-output/', async (width, theme) => {
    const tab = await browser.newPage({ viewport: { width, height: width > 500 ? 800 : 844 }, colorScheme: theme })
    const name = `serve-${width}-${theme}`
    const violations: string[] = []
    mkdirSync(outputDir, { recursive: true })
    const capture = async (state: string): Promise<void> => {
      await tab.screenshot({ path: `${outputDir}${name}-${state}.png` })
      violations.push(...await audit(tab, `${name} ${state}`))
    }
    try {
      await tab.goto(`${server.url}/?c=${name}`)
      await tab.locator('[data-chatrail-suggestions]').waitFor()
      if (theme === 'dark') {
        // The stylesheet follows the system theme: the chat and the page around it are dark.
        const surface = await tab.locator('[data-chatrail-input]').evaluate((el) => getComputedStyle(el).backgroundColor)
        expect(Math.max(...(surface.match(/\d+/g) ?? ['255']).slice(0, 3).map(Number))).toBeLessThan(80)
      }
      await capture('first-screen')
      await tab.getByRole('button', { name: /^\/start/ }).click()
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
      await send('it is order #12345', tab)
      await tab.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor()
      await idle(tab)
      await capture('deterministic')
      await send('show me the options as markdown', tab)
      await tab.locator('[data-chatrail-code]').waitFor({ timeout: 15_000 })
      await idle(tab)
      await capture('markdown')
      await send('ask me about my subscription', tab)
      const card = tab.getByRole('region', { name: 'The agent asks' })
      await card.waitFor({ timeout: 15_000 })
      await capture('dialog-pending')
      await card.getByText('Pro', { exact: true }).click()
      await card.getByRole('button', { name: 'Answer' }).click()
      await idle(tab)
      await tab.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Confirm' }).click()
      await tab.getByRole('group', { name: 'Conversation ended' }).getByRole('button', { name: 'Start over' }).waitFor({ timeout: 15_000 })
      await idle(tab)
      await capture('final-start-over')
    } finally {
      await tab.close()
    }
    expect(violations).toEqual([])
  }, 90_000)
})

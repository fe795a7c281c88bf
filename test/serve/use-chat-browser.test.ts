import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { createScriptedAgent, type ScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { buildServePage } from '../../src/cli/serve/build-page.js'
import { pageConfigOf } from '../../src/cli/serve/page-config.js'
import { startServeHttp, type RunningServer } from '../../src/cli/serve/serve-http.js'
import { createChatHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import { findChromium, launchChromium } from '../react/chromium.js'

// Issue 17: `useChat` from @ai-sdk/react, unchanged, in a real browser against the chatrail
// handler on 127.0.0.1, served by `chatrail serve`'s HTTP server (the handler, /chatrail-serve.json).
// The page is a test page (test/serve/use-chat-page: useChat and its own small markup), built with
// the serve page's builder; `chatrail serve`'s own page is chatrail/react's (serve-page-browser.test.ts).
// Its agentic fallback is examples/react-support's scripted agent, which counts its calls in this
// process. Skipped (with this reason) only where `chromium` is not on PATH.
const chromiumPath = findChromium()
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
interface AxeResult { violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }
const title = chromiumPath === undefined
  ? 'useChat against the chatrail handler in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'useChat against the chatrail handler in chromium'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let page: Page
  let server: RunningServer
  let agent: ScriptedAgent
  let aborts = 0
  const store = memoryStore()
  const pageErrors: string[] = []

  beforeAll(async () => {
    // The scripted agent, with its aborts counted: a stop must reach the agent on the server.
    const scripted = createScriptedAgent()
    agent = {
      ...scripted,
      createSource: (request) => {
        const source = scripted.createSource(request)
        return { stream: () => source.stream(), abort: () => { aborts += 1; source.abort() } }
      },
    }
    const definition = createSupportBot(agent)
    const handler = createChatHandler({ definition, store, authenticate: 'none' })
    const entry = fileURLToPath(new URL('./use-chat-page/main.tsx', import.meta.url))
    server = await startServeHttp({ handler, page: await buildServePage({ entry }), pageConfig: pageConfigOf(definition), authenticate: 'none', host: '127.0.0.1', port: 0 })
    browser = await launchChromium(chromiumPath as string)
    page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${server.url}/`)
    await page.locator('[data-serve-status="ready"]').waitFor()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await store.close()
  })

  const state = (): Promise<string | null> => page.locator('[data-chatrail-state]').getAttribute('data-chatrail-state')
  const turnKind = (): Promise<string | null> => page.locator('[data-chatrail-state]').getAttribute('data-chatrail-turn-kind')
  const replies = (): Promise<string[]> => page.locator('[data-chatrail-role="assistant"]').allInnerTexts()
  const ready = (): Promise<void> => page.locator('[data-serve-status="ready"]').waitFor()
  async function send(text: string): Promise<void> {
    await page.getByRole('textbox', { name: 'Message' }).fill(text)
    await page.keyboard.press('Enter')
  }

  it('a deterministic turn advances the state, read from the data-chatrail part; the agent is not asked', async () => {
    expect(await state()).toBe('greeting')
    await send('/start')
    await page.locator('[data-chatrail-state="collecting"]').waitFor()
    await ready()
    expect(await turnKind()).toBe('deterministic')
    expect(await replies()).toEqual(['Sure. What is your order number? (for example #12345)'])
    expect(agent.calls()).toBe(0)
  })

  it('regenerate replays the deterministic answer from the store with no adapter call', async () => {
    const before = await page.locator('[data-chatrail-role="assistant"]').getAttribute('data-message-id')
    await page.getByRole('button', { name: 'Regenerate' }).click()
    await page.locator('[data-chatrail-replayed]').waitFor()
    await ready()
    expect(await replies()).toEqual(['Sure. What is your order number? (for example #12345)'])
    // A new answer (a new message id) replaced the old one; the state is where it was.
    expect(await page.locator('[data-chatrail-role="assistant"]').getAttribute('data-message-id')).not.toBe(before)
    expect(await state()).toBe('collecting')
    expect(agent.calls()).toBe(0)
  })

  it('free text reaches the agentic fallback', async () => {
    await send('my parcel never arrived')
    await page.locator('[data-chatrail-turn-kind="agentic"]').waitFor()
    await ready()
    expect((await replies()).at(-1)).toContain('(agent) I looked into “my parcel never arrived”')
    expect(await state()).toBe('collecting')
    expect(agent.calls()).toBe(1)
  })

  it('a UI event button reaches its event route; only events an event route fires are buttons', async () => {
    // collecting declares help, order, escalate and cancel; only escalate has an event route.
    expect(await page.locator('[data-chatrail-event]').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-chatrail-event')))).toEqual(['escalate'])
    expect(await page.locator('[data-chatrail-event="escalate"]').innerText()).toBe('Escalate')
    await page.locator('[data-chatrail-event="escalate"]').click()
    await page.locator('[data-chatrail-state="escalated"]').waitFor()
    await ready()
    expect(await turnKind()).toBe('deterministic')
    expect(agent.calls()).toBe(1)
  })

  it('the page has no axe-core violations (WCAG 2 A/AA and best practices)', async () => {
    await page.addScriptTag({ content: axeSource })
    const result = await page.evaluate(() => (window as unknown as { axe: { run: (context: Document) => Promise<AxeResult> } }).axe.run(document))
    expect(result.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id} at ${node.target.join(' ')}`))).toEqual([])
  })

  it('a reload restores the conversation (GET) under the same id', async () => {
    const address = page.url()
    expect(new URL(address).searchParams.get('c')).toMatch(/^c-[\w-]+$/)
    const before = await page.locator('[data-chatrail-message]').allInnerTexts()
    expect(before).toHaveLength(6)
    await page.reload()
    await page.locator('[data-serve-status="ready"]').waitFor()
    expect(page.url()).toBe(address)
    expect(await page.locator('[data-chatrail-message]').allInnerTexts()).toEqual(before)
    expect(await state()).toBe('escalated')
    expect(agent.calls()).toBe(1)
    expect(pageErrors).toEqual([])
  })

  it('a pending dialog (the live agent asks) arrives in the data-chatrail part and is answered over HTTP', async () => {
    await send('before you go on, ask me about my subscription')
    const card = page.getByRole('region', { name: 'The agent asks' })
    await card.waitFor()
    expect(await card.innerText()).toContain('Which plan are you on?')
    await card.getByRole('button', { name: 'Team' }).click()
    await page.locator('[data-chatrail-dialog]').waitFor({ state: 'detached' })
    await ready()
    expect((await replies()).at(-1)).toContain('Thanks — Team')
    expect(agent.calls()).toBe(2)
    expect(pageErrors).toEqual([])
  })

  it('Stop reaches the turn on the server (POST { action: "stop" }): the agent is aborted, the reply stays partial', async () => {
    await send('tell me the long story')
    const reply = page.locator('[data-chatrail-role="assistant"]').last()
    await expect.poll(() => reply.innerText(), { timeout: 10_000 }).toContain('Step 1:')
    await page.getByRole('button', { name: 'Stop' }).click()
    await ready()
    // The long reply takes ≈ 12 s; the stop signal is polled while the turn runs.
    await expect.poll(() => aborts, { timeout: 10_000 }).toBe(1)
    expect(await reply.innerText()).not.toContain('Step 12:')
    expect(agent.calls()).toBe(3)
  })
})

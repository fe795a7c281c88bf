import { mkdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { sourceChunk } from '../../src/controller/index.js'
import { createChatHandler, toNodeHandler } from '../../src/server/index.js'
import { memoryStore, type ConversationStore } from '../../src/store/index.js'
import { findChromium, launchChromium } from './chromium.js'
import { audit } from './axe-audit.js'
import { buildTestPage, serveTestPage, type TestPageServer } from './page-server.js'
import { remoteDefinition } from './remote-page/remote-definition.js'

// Issue #31 item 9's proof, "branches survive a reload through the server": chatrail/react's remote
// mode (<RemoteChatSession>) in Debian's chromium against createChatHandler (memory store). At 1280
// and 390 px, light and dark, keyboard only: regenerate a reply, reload, the picker still says 2/2;
// Previous version shows the first answer (and keeps the focus), a reload keeps it; the reply's
// "Thinking" section and its source survive the reload too; axe-core 0 violations; screenshots
// under test-output/. Built into its own directory (it never races remote-browser.test.ts).
const chromiumPath = findChromium()
const pageDir = fileURLToPath(new URL('../../test-output/remote-versions-page/', import.meta.url))
const outputDir = fileURLToPath(new URL('../../test-output/', import.meta.url))

/** `answer 1`, `answer 2`, … with reasoning and a cited source, a few ms apart. */
function numberedAgent(): AdapterFactory {
  let n = 0
  const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5))
  return {
    createSource: () => ({
      abort: () => undefined,
      async *stream(): AsyncIterableIterator<StreamChunk> {
        n += 1
        yield { type: 'reasoning', content: `Thinking about answer ${n}.` }
        await pause()
        yield { type: 'text', content: `This is answer ${n}.` }
        yield sourceChunk({ url: `https://example.com/source-${n}`, title: `Source ${n}` })
        yield { type: 'done' }
      },
    }),
  }
}

const title = chromiumPath === undefined
  ? 'remote versions in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'remote versions in chromium: branches survive a reload through the server (1280 and 390 px, light and dark)'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: TestPageServer | undefined
  let store: ConversationStore
  let origin: string

  beforeAll(async () => {
    // chatrail/react's own stylesheet, inlined: light and dark, the picker and the actions as users see them
    const styles = readFileSync(fileURLToPath(new URL('../../renderers/react/styles.css', import.meta.url)), 'utf8')
    await buildTestPage({ entry: new URL('./remote-page/main.tsx', import.meta.url), outdir: pageDir, html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>remote versions</title><style>${styles}</style></head><body><main><h1>Remote versions</h1><div id="root"></div></main><script type="module" src="/main.js"></script></body></html>` })
    store = memoryStore()
    const handler = toNodeHandler(createChatHandler({ definition: remoteDefinition(numberedAgent()), store, authenticate: 'none' }))
    server = await serveTestPage(pageDir, handler)
    origin = server.origin
    browser = await launchChromium(chromiumPath as string)
    mkdirSync(outputDir, { recursive: true })
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await store?.close()
  })

  const reply = (tab: Page) => tab.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last()
  const count = (tab: Page) => reply(tab).locator('[data-chatrail-branch-count]')
  const idle = (tab: Page) => tab.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()

  for (const width of [1280, 390]) {
    for (const dark of [false, true]) {
      const name = `react-remote-versions-${width}-${dark ? 'dark' : 'light'}`
      it(`${width} px ${dark ? 'dark' : 'light'}: regenerate, reload, 2/2; Previous version shows the first answer and survives a reload; axe 0`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: dark ? 'dark' : 'light' })
        const tab = await context.newPage()
        const errors: string[] = []
        tab.on('pageerror', (error) => errors.push(error.message))
        const violations: string[] = []
        try {
          await tab.goto(`${origin}/?c=${name}`)
          await tab.getByRole('textbox', { name: 'Message' }).fill('Tell me something')
          await tab.keyboard.press('Enter')
          await expect.poll(async () => reply(tab).innerText(), { timeout: 15_000 }).toMatch(/This is answer \d+\./)
          await idle(tab)
          const first = /This is answer (\d+)\./.exec(await reply(tab).innerText())?.[1]

          // Regenerate by keyboard: focus the reply's action and press Enter
          await reply(tab).getByRole('button', { name: 'Regenerate' }).focus()
          await tab.keyboard.press('Enter')
          await expect.poll(async () => count(tab).innerText(), { timeout: 15_000 }).toContain('2/2')
          await idle(tab)
          const second = /This is answer (\d+)\./.exec(await reply(tab).innerText())?.[1]
          expect(second).not.toBe(first)

          await tab.reload()
          await expect.poll(async () => (await count(tab).count()) > 0 ? count(tab).innerText() : '', { timeout: 15_000 }).toContain('2/2')
          expect(await reply(tab).innerText()).toContain(`This is answer ${second}.`)
          // the reply's reasoning and source came back from the store (their UI is a lazy chunk)
          await expect.poll(async () => reply(tab).innerText(), { timeout: 15_000 }).toContain('Thinking')
          await reply(tab).locator('a[href^="https://example.com/source-"]').waitFor({ timeout: 15_000 })
          expect(await reply(tab).locator('a[href^="https://example.com/source-"]').getAttribute('href')).toBe(`https://example.com/source-${second}`)
          await tab.screenshot({ path: `${outputDir}${name}-reloaded.png` })
          violations.push(...await audit(tab, `${name} reloaded`))

          await reply(tab).locator('[data-chatrail-branch-previous]').focus()
          await tab.keyboard.press('Enter')
          await expect.poll(async () => reply(tab).innerText(), { timeout: 15_000 }).toContain(`This is answer ${first}.`)
          expect(await count(tab).innerText()).toContain('1/2')
          // the focus stayed on the picker (the reply keeps its element), not on the page
          expect(await tab.evaluate(() => document.activeElement?.hasAttribute('data-chatrail-branch-previous') ?? false)).toBe(true)
          await tab.screenshot({ path: `${outputDir}${name}-switched.png` })
          violations.push(...await audit(tab, `${name} switched`))

          await tab.reload()
          await expect.poll(async () => (await count(tab).count()) > 0 ? count(tab).innerText() : '', { timeout: 15_000 }).toContain('1/2')
          expect(await reply(tab).innerText()).toContain(`This is answer ${first}.`)
          // and forward again, by keyboard
          await reply(tab).locator('[data-chatrail-branch-next]').focus()
          await tab.keyboard.press('Enter')
          await expect.poll(async () => reply(tab).innerText(), { timeout: 15_000 }).toContain(`This is answer ${second}.`)
          violations.push(...await audit(tab, `${name} forward`))
        } catch (error) {
          await tab.screenshot({ path: `${outputDir}${name}-DEBUG.png` }).catch(() => undefined)
          throw error
        } finally {
          await context.close()
        }
        expect(violations).toEqual([])
        expect(errors).toEqual([])
      }, 60_000)
    }
  }
})

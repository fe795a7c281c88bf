import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { runTestCommand } from '../../src/cli/test-command.js'
import { findChromium, launchChromium } from '../react/chromium.js'
import { audit } from '../react/axe-audit.js'
import { allKindsConversation, happyConversation, startDevtoolsServer, TOKEN, type DevtoolsServer } from './devtools-harness.js'
import { holdAgent } from './fixtures/devtools-chat.js'

// Issue 33, the browser half: `chatrail serve`'s /devtools page (chatrail/devtools' <ChatDevtools>)
// in Debian's chromium, over the devtools API and the chat handler on one serve HTTP server with a
// token. The conversations are written through the chat handler as useChat writes them; the page
// only reads. Skipped (with this reason) only where `chromium` is not on PATH.
// CHATRAIL_DEVTOOLS_SCREENSHOTS=1 also copies the screenshots docs/devtools.md shows to docs/images/.
const chromiumPath = findChromium()
const outputDir = fileURLToPath(new URL('../../test-output/devtools/', import.meta.url))
const docsImages = fileURLToPath(new URL('../../docs/images/', import.meta.url))
const title = chromiumPath === undefined
  ? 'the devtools page in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'the devtools page (chatrail/devtools under chatrail serve) in chromium'

function screenshotFor(docsName: string, path: string): void {
  if (process.env.CHATRAIL_DEVTOOLS_SCREENSHOTS !== '1') return
  mkdirSync(docsImages, { recursive: true })
  copyFileSync(path, join(docsImages, docsName))
}

describe.skipIf(chromiumPath === undefined)(title, () => {
  let browser: Browser
  let server: DevtoolsServer
  let page: Page
  const pageErrors: string[] = []
  const downloads = mkdtempSync(join(tmpdir(), 'chatrail-devtools-export-'))

  beforeAll(async () => {
    mkdirSync(outputDir, { recursive: true })
    server = await startDevtoolsServer()
    // Written oldest first: c-greeting, then c-happy, then c-all-kinds (the newest).
    await server.turn('c-greeting', 'hi')
    await happyConversation(server, 'c-happy')
    await allKindsConversation(server, 'c-all-kinds')
    browser = await launchChromium(chromiumPath as string)
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', acceptDownloads: true })
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${server.url}/devtools/#token=${TOKEN}`)
    await page.locator('[data-devtools-item]').first().waitFor()
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    rmSync(downloads, { recursive: true, force: true })
  })

  const items = (target: Page = page): Promise<string[]> => target.locator('[data-devtools-item]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-devtools-item') ?? ''))
  const openConversation = async (id: string, target: Page = page): Promise<void> => {
    await target.locator(`[data-devtools-item="${id}"]`).click()
    await target.locator(`[data-devtools-conversation="${id}"] [data-devtools-turn]`).first().waitFor()
  }

  it('serves the page at /devtools/ without the token and the API only with it; the token leaves the address bar', async () => {
    expect(new URL(page.url()).hash).toBe('')
    expect((await fetch(`${server.url}/devtools/api/conversations`)).status).toBe(401)
    expect((await fetch(`${server.url}/devtools/api/conversations`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('chatrail devtools')
    await page.locator('[data-devtools-live="live"]').waitFor()
  })

  it('lists the conversations newest first, with state, turns and last kind', async () => {
    expect(await items()).toEqual(['c-all-kinds', 'c-happy', 'c-greeting'])
    const first = page.locator('[data-devtools-item="c-all-kinds"]')
    expect(await first.locator('[data-devtools-item-state]').innerText()).toBe('done')
    expect(await first.innerText()).toContain('14 turns · last unavailable · 1 failed')
  })

  it('filters by state, kind of last turn, failed turns and revision', async () => {
    const filters = page.getByRole('group', { name: 'Filter' })
    await filters.getByLabel('State').selectOption('greeting')
    await expect.poll(() => items()).toEqual(['c-greeting'])
    await filters.getByLabel('State').selectOption('')
    await filters.getByLabel('Last turn').selectOption('unavailable')
    await expect.poll(() => items()).toEqual(['c-all-kinds'])
    await filters.getByLabel('Last turn').selectOption('')
    await filters.getByLabel('with failed turns').check()
    await expect.poll(() => items()).toEqual(['c-all-kinds'])
    await filters.getByLabel('with failed turns').uncheck()
    await filters.getByLabel('Revision').fill('7')
    await page.getByText('No conversation matches.').waitFor()
    await filters.getByLabel('Revision').fill('')
    await expect.poll(() => items()).toEqual(['c-all-kinds', 'c-happy', 'c-greeting'])
  })

  it('updates live: a conversation written while the page is open comes in at the top, and a new turn moves one up', async () => {
    await server.turn('c-live', '/start')
    await expect.poll(() => items(), { timeout: 10_000 }).toEqual(['c-live', 'c-all-kinds', 'c-happy', 'c-greeting'])
    await server.turn('c-greeting', '/start')
    await expect.poll(() => items(), { timeout: 10_000 }).toEqual(['c-greeting', 'c-live', 'c-all-kinds', 'c-happy'])
    expect(await page.locator('[data-devtools-item="c-greeting"] [data-devtools-item-state]').innerText()).toBe('identify')
  })

  it('a conversation: its messages beside its turns, each with kind, route, state before → after, the verified record, timings and adapter calls', async () => {
    await openConversation('c-all-kinds')
    const turns = page.locator('[data-devtools-turn]')
    expect(await turns.count()).toBe(14)
    const kinds = await turns.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-devtools-kind')))
    expect(new Set(kinds)).toEqual(new Set(['deterministic', 'agentic', 'failed', 'repaired', 'fallback', 'refused', 'form', 'unavailable']))
    const start = turns.nth(6)
    expect(await start.getAttribute('data-devtools-kind')).toBe('deterministic')
    expect(await start.locator('[data-devtools-route-id]').innerText()).toBe('start')
    expect(await start.locator('[data-devtools-states]').innerText()).toBe('greeting → identify on start')
    expect(await start.locator('[data-devtools-signature]').innerText()).toBe('signed and verified')
    // the turn's time from the message times; route resolution as the server stored it
    expect(await start.locator('[data-devtools-timings]').innerText()).toMatch(/^turn \d+ ms · route \d+ ms · store before the write \d+ ms$/)
    const agentic = turns.nth(1)
    expect(await agentic.locator('[data-devtools-timings]').innerText()).toMatch(/^turn \d+ ms · route \d+ ms · adapter first chunk \d+ ms · adapter \d+ ms · store before the write \d+ ms$/)
    expect(await agentic.locator('[data-devtools-adapter-calls]').getAttribute('data-devtools-adapter-calls')).toBe('1')
    // the agent's answer carries no decision record (nothing to replay it from but the answer itself)
    expect(await agentic.locator('[data-devtools-signature]').innerText()).toBe('none stored')
    expect(await turns.nth(3).innerText()).toContain('ROUTE_FAILED')
    // the row holds the turn's user message and its answer, side by side with the card at 1280 px
    const row = page.locator('[data-devtools-row]:has([data-devtools-turn="6"])')
    expect(await row.locator('[data-devtools-role="user"]').innerText()).toContain('/start')
    expect(await row.locator('[data-devtools-role="assistant"]').innerText()).toContain('Let us replace your card.')
    const [messages, card] = await Promise.all([row.locator('[data-devtools-row-messages]').boundingBox(), row.locator('[data-devtools-row-turn]').boundingBox()])
    expect(card?.x ?? 0).toBeGreaterThan((messages?.x ?? 0) + (messages?.width ?? 0) - 1)
    expect(card?.y).toBe(messages?.y)
  })

  it('"why not the other routes" explains a user message on demand, route by route', async () => {
    const agentic = page.locator('[data-devtools-turn="1"]')
    const button = agentic.getByRole('button', { name: 'Why not the other routes?' })
    expect(await button.getAttribute('aria-expanded')).toBe('false')
    await button.click()
    const table = agentic.locator('[data-devtools-explanation]')
    await table.waitFor()
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    expect(await table.getAttribute('data-devtools-outcome')).toBe('agent')
    expect(await table.locator('[data-devtools-route="greet"]').innerText()).toContain('does not match')
    expect(await table.locator('[data-devtools-route="order"]').innerText()).toContain('not in this state')
    expect(await table.locator('[data-devtools-route="address-yes"]').innerText()).toContain('event not declared here')
    expect(await table.locator('[data-devtools-matched]').count()).toBe(0)
  })

  it('the state diagram (dagre, a lazy chunk) marks the current state and the path taken; a state lists its events and routes', async () => {
    const diagram = page.locator('[data-devtools-diagram]')
    await diagram.waitFor()
    expect(await diagram.locator('[data-devtools-current]').getAttribute('data-devtools-state')).toBe('done')
    const taken = await diagram.locator('[data-devtools-edge][data-devtools-taken]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-devtools-edge')))
    expect(taken.sort()).toEqual(['chooseDelivery->lookup', 'confirmAddress->chooseDelivery', 'greeting->identify', 'identify->confirmAddress', 'lookup->done'])
    expect(await diagram.locator('[data-devtools-state="human"][data-devtools-visited]').count()).toBe(0)
    // by keyboard: focus a state, Enter
    await diagram.locator('[data-devtools-state="confirmAddress"]').focus()
    await page.keyboard.press('Enter')
    const details = page.locator('[data-devtools-state-details="confirmAddress"]')
    await details.waitFor()
    expect(await diagram.locator('[data-devtools-state="confirmAddress"]').getAttribute('aria-pressed')).toBe('true')
    const events = await details.locator('[data-devtools-state-events] li').allInnerTexts()
    expect(events).toEqual(expect.arrayContaining(['confirm → chooseDelivery (guarded)', 'wrongAddress → human', 'cancel → greeting (conversation-level)']))
    expect((await details.locator('[data-devtools-state-routes]').innerText())).toContain('address-yes')
    // the layout library is in its own chunk, loaded for the diagram only
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => name.endsWith('.js')))
    expect(scripts.some((name) => /\/devtools\/assets\/state-diagram-[\w-]+\.js$/.test(name))).toBe(true)
  })

  it('what-if: a message and a state → the route that would answer and why; the conversation is not touched', async () => {
    const version = (await server.store.load('c-all-kinds'))?.version
    const whatIf = page.locator('[data-devtools-what-if]')
    await whatIf.getByLabel('Message').fill('/start')
    await whatIf.getByLabel('In state').selectOption('greeting')
    await whatIf.getByRole('button', { name: 'Explain' }).click()
    const result = whatIf.locator('[data-devtools-explanation]')
    await result.waitFor()
    expect(await result.getAttribute('data-devtools-outcome')).toBe('route')
    expect(await result.locator('[data-devtools-explanation-outcome]').innerText()).toContain('route: start → identify')
    expect(await result.locator('[data-devtools-route="start"][data-devtools-matched]').count()).toBe(1)
    await whatIf.getByLabel('Message').fill('4821')
    await whatIf.getByLabel('In state').selectOption('identify')
    await whatIf.getByRole('button', { name: 'Explain' }).click()
    await whatIf.locator('[data-devtools-explanation][data-devtools-outcome="slot-filled"]').waitFor()
    expect((await server.store.load('c-all-kinds'))?.version).toBe(version)
  })

  it('Export downloads a .conv.yaml that `chatrail test` passes on today\'s definition', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as test (.conv.yaml)' }).click()])
    expect(download.suggestedFilename()).toBe('c-all-kinds.conv.yaml')
    const file = join(downloads, download.suggestedFilename())
    await download.saveAs(file)
    const yaml = readFileSync(file, 'utf8')
    expect(yaml).toContain('user: "what can you do?"')
    await page.getByText('Downloaded c-all-kinds.conv.yaml.').waitFor()
    const output: string[] = []
    const code = await runTestCommand([file], { stdout: (text) => output.push(text), stderr: (text) => output.push(text), cwd: downloads })
    expect(output.join('\n')).toContain('1 passed, 0 failed')
    expect(code).toBe(0)
    // Redacted: the user's texts are placeholders, and the file still passes
    await page.getByLabel('Redact user texts').check()
    const [redacted] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as test (.conv.yaml)' }).click()])
    const redactedFile = join(downloads, `redacted-${redacted.suggestedFilename()}`)
    await redacted.saveAs(redactedFile)
    expect(readFileSync(redactedFile, 'utf8')).not.toContain('what can you do?')
    expect(await runTestCommand([redactedFile], { stdout: () => undefined, stderr: () => undefined, cwd: downloads })).toBe(0)
    await page.getByLabel('Redact user texts').uncheck()
  }, 30_000)

  it('keeps the open conversation in ?c= (a reload reopens it) and Back returns to the list', async () => {
    expect(new URL(page.url()).searchParams.get('c')).toBe('c-all-kinds')
    await page.reload()
    await page.locator('[data-devtools-conversation="c-all-kinds"] [data-devtools-turn]').first().waitFor()
    await page.goBack()
    await page.locator('[data-devtools-empty]').waitFor()
  })

  it('a conversation with a turn running says so, and follows the turn live to its stored answer', async () => {
    await server.turn('c-running', 'hi')
    await page.locator('[data-devtools-item="c-running"]').click()
    await page.locator('[data-devtools-conversation="c-running"] [data-devtools-turn="0"]').waitFor()
    const release = holdAgent()
    const running = server.turn('c-running', 'please wait')
    try {
      // the handler stores a turn's user message with its answer: until then the turn holds the lease, and the detail says so
      await expect.poll(async () => {
        await page.reload()
        await page.locator('[data-devtools-summary]').waitFor()
        return page.locator('[data-devtools-summary]').innerText()
      }, { timeout: 10_000 }).toContain('a turn is running')
      expect(await page.locator('[data-devtools-turn]').count()).toBe(1)
    } finally {
      release()
      await running
    }
    await page.locator('[data-devtools-turn="1"][data-devtools-kind="agentic"]').waitFor({ timeout: 10_000 })
    expect(await page.locator('[data-devtools-row]:has([data-devtools-turn="1"]) [data-devtools-role="assistant"]').innerText()).toContain('One moment: I looked it up.')
    expect(await page.locator('[data-devtools-summary]').innerText()).not.toContain('a turn is running')
  })

  // What a person sees, at both widths and in both themes, audited by axe-core; screenshots under
  // test-output/devtools (and docs/images with CHATRAIL_DEVTOOLS_SCREENSHOTS=1).
  it.each([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const)('axe finds no violation at %i px (%s): the list, a conversation with an explanation, a selected state and a what-if', async (width, theme) => {
    const tab = await browser.newPage({ viewport: { width, height: width > 500 ? 800 : 844 }, colorScheme: theme })
    const violations: string[] = []
    const shot = async (name: string): Promise<string> => {
      const path = `${outputDir}devtools-${width}-${theme}-${name}.png`
      await tab.screenshot({ path })
      return path
    }
    try {
      await tab.goto(`${server.url}/devtools/#token=${TOKEN}`)
      await tab.locator('[data-devtools-item]').first().waitFor()
      await tab.locator('[data-devtools-live="live"]').waitFor()
      violations.push(...await audit(tab, 'list'))
      const list = await shot('list')
      if (width === 390 && theme === 'light') screenshotFor('devtools-list-390.png', list)
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)

      await openConversation('c-all-kinds', tab)
      await tab.locator('[data-devtools-diagram]').waitFor()
      if (width === 390) {
        // one column: the list is hidden while a conversation is open, the message stacks above its turn
        expect(await tab.locator('[data-devtools-list]').isVisible()).toBe(false)
        const row = tab.locator('[data-devtools-row]').nth(1)
        const [messages, card] = await Promise.all([row.locator('[data-devtools-row-messages]').boundingBox(), row.locator('[data-devtools-row-turn]').boundingBox()])
        expect(card?.y ?? 0).toBeGreaterThan(messages?.y ?? 0)
      }
      await tab.locator('[data-devtools-turn="1"]').getByRole('button', { name: 'Why not the other routes?' }).click()
      await tab.locator('[data-devtools-turn="1"] [data-devtools-explanation]').waitFor()
      await tab.locator('[data-devtools-diagram] [data-devtools-state="identify"]').click()
      await tab.locator('[data-devtools-state-details="identify"]').waitFor()
      const whatIf = tab.locator('[data-devtools-what-if]')
      await whatIf.getByLabel('Message').fill('yes')
      await whatIf.getByLabel('In state').selectOption('confirmAddress')
      await whatIf.getByRole('button', { name: 'Explain' }).click()
      await whatIf.locator('[data-devtools-explanation]').waitFor()
      violations.push(...await audit(tab, 'conversation'))
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      await tab.evaluate(() => window.scrollTo(0, 0))
      const conversation = await shot('conversation')
      if (width === 1280 && theme === 'light') screenshotFor('devtools-conversation-1280.png', conversation)
      if (width === 390 && theme === 'dark') screenshotFor('devtools-conversation-390-dark.png', conversation)
      if (width === 1280 && theme === 'light') {
        // the turns beside their messages, the first explanation open (the page's top shows the diagram)
        await tab.locator('[data-devtools-turns-panel]').evaluate((node) => node.scrollIntoView({ block: 'start' }))
        screenshotFor('devtools-turns-1280.png', await shot('turns'))
      }
      if (width === 1280 && theme === 'dark') {
        const panel = `${outputDir}devtools-1280-dark-diagram.png`
        await tab.locator('[data-devtools-diagram-panel]').screenshot({ path: panel })
        screenshotFor('devtools-diagram-dark.png', panel)
      }
    } finally {
      await tab.close()
    }
    expect(violations).toEqual([])
  }, 60_000)

  it('pages the list: the newest 50, then Show more reads the next page', async () => {
    // 50 more conversations, written straight to the store (one user message each): 55 in all
    for (let index = 0; index < 50; index += 1) {
      await server.store.append(`c-bulk-${String(index).padStart(2, '0')}`, { expectedVersion: 0, definition: { id: 'lost-card', revision: 1 }, messages: [{ id: 'u1', role: 'user', content: 'hi', status: 'complete', createdAt: new Date() }] })
    }
    await page.goto(`${server.url}/devtools/`)
    await expect.poll(async () => (await items()).length, { timeout: 10_000 }).toBe(50)
    expect((await items())[0]).toBe('c-bulk-49')
    await page.getByRole('button', { name: 'Show more' }).click()
    await expect.poll(async () => (await items()).length).toBe(55)
    expect((await items()).slice(50)).toEqual(['c-running', 'c-greeting', 'c-live', 'c-all-kinds', 'c-happy'])
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0)
  })

  it('a long conversation opens on its newest 200 turns; Show earlier turns reads back to the first', async () => {
    // 600 turns (1,200 messages, over what the API reads whole on a request), straight to the store
    const messages = Array.from({ length: 1200 }, (_, index) => ({
      id: `long-${index}`, role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `message ${index}`, status: 'complete' as const, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
    }))
    await server.store.append('c-long', { expectedVersion: 0, definition: { id: 'lost-card', revision: 1 }, messages })
    await page.goto(`${server.url}/devtools/`)
    await expect.poll(async () => (await items())[0], { timeout: 10_000 }).toBe('c-long')
    await page.locator('[data-devtools-item="c-long"]').click()
    const view = page.locator('[data-devtools-conversation="c-long"]')
    // first its newest turns as their records say (when the server has not walked it whole yet), then exact
    await expect.poll(async () => view.locator('[data-devtools-summary]').textContent(), { timeout: 15_000 }).toContain('600, the newest 200 shown')
    expect(await view.locator('[data-devtools-partial]').count()).toBe(0)
    expect(await view.locator('[data-devtools-turn]').count()).toBe(200)
    expect(await view.locator('[data-devtools-turn]').first().getAttribute('data-devtools-turn')).toBe('400')
    const earlier = view.getByRole('button', { name: 'Show earlier turns (400 before these)' })
    expect(await audit(page, 'long conversation')).toEqual([])
    await earlier.click()
    await expect.poll(async () => view.locator('[data-devtools-turn]').count()).toBe(400)
    await view.getByRole('button', { name: 'Show earlier turns (200 before these)' }).click()
    await expect.poll(async () => view.locator('[data-devtools-turn]').count()).toBe(600)
    const shown = await view.locator('[data-devtools-turn]').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-devtools-turn'))))
    expect(shown).toEqual(Array.from({ length: 600 }, (_, index) => index))
    expect(await view.locator('[data-devtools-earlier-button]').count()).toBe(0)
  }, 60_000)

  it('threw nothing in the page', () => {
    expect(pageErrors).toEqual([])
  })
})

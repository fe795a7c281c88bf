import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { createChatHandler, toNodeHandler } from '../../src/server/index.js'
import { memoryStore } from '../../src/store/index.js'
import type { ConversationStore } from '../../src/store/index.js'
import { findChromium, launchChromium } from '../react/chromium.js'
import { audit } from '../react/axe-audit.js'
import { serveTestPage } from '../react/page-server.js'
import type { TestPageServer } from '../react/page-server.js'
import type { BindingMount } from './binding-mount.js'
import { scenarioDefinition } from './scenario-app/definition.js'
import { LOG_LINES } from './scenario-app/extras-agent.js'

/**
 * Issue 34's proof: one behavioural scenario suite, run against every web binding in Debian's
 * chromium. Each binding builds the same scenario app (scenario-app/) into a page; the scenarios
 * drive it by role and accessible name only, so a binding whose markup, words or behaviour drift
 * from the others fails here. Each binding's test file (react-, vue-, svelte-scenarios-browser.test.ts)
 * calls this once: one file per binding, so that the three run in parallel workers instead of one
 * 84-second file that ran last in `npm test` (issue 27). Per file: one browser, one tab reused by
 * the local scenarios (each starts from a fresh page load: nothing carries over), and one server
 * (the page beside a chatrail handler over a memory store, for remote mode).
 */
export function describeBindingScenarios(mount: BindingMount): void {
  const chromiumPath = findChromium()
  const name = mount.name
  const title = chromiumPath === undefined
    ? `${name} binding in chromium — skipped: no \`chromium\` on PATH (.ci/run installs it with apt-get)`
    : `${name} binding in chromium: the shared scenario suite`

  describe.skipIf(chromiumPath === undefined)(title, () => {
    let browser: Browser
    beforeAll(async () => { browser = await launchChromium(chromiumPath as string) }, 60_000)
    afterAll(async () => { await browser?.close() })

    const pageDir = fileURLToPath(new URL(`../../test-output/binding-scenarios/${name}/`, import.meta.url))
    let server: TestPageServer | undefined
    let store: ConversationStore
    let context: BrowserContext
    let page: Page
    const pageErrors: string[] = []

    beforeAll(async () => {
      await mount.build(pageDir)
      store = memoryStore()
      const handler = toNodeHandler(createChatHandler({ definition: scenarioDefinition(createScriptedAgent({ chunkDelayMs: 5 })), store, authenticate: 'none' }))
      server = await serveTestPage(pageDir, handler)
      // clipboard: a code block's copy button is checked by reading back what it copied
      context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
      page = await context.newPage()
      page.on('pageerror', (error) => pageErrors.push(error.message))
    }, 60_000)

    afterAll(async () => {
      await context?.close()
      await server?.close()
      await store?.close()
      // No scenario may leave an uncaught error in a page behind.
      expect(pageErrors).toEqual([])
    })

    /** A fresh page load of the local-mode app (a new session, nothing from the scenario before). */
    async function open(target: Page = page, query = 'mode=local'): Promise<Page> {
      await target.goto(`${server?.origin ?? ''}/?${query}`)
      await target.locator('[data-chatrail-state-badge]').waitFor()
      return target
    }
    const badge = (target: Page = page) => target.locator('[data-chatrail-state-badge]')
    const idle = (target: Page = page) => target.locator('[data-chatrail-chat][data-chatrail-status="idle"]').waitFor()
    const calls = async (): Promise<number> => Number(await page.getByTestId('agent-calls').textContent())
    const userTexts = (target: Page = page) => target.locator('[data-chatrail-message][data-chatrail-role="user"] [data-chatrail-content]').allInnerTexts()
    const replies = (target: Page = page) => target.locator('[data-chatrail-message][data-chatrail-role="assistant"]')
    const lastReplyText = (target: Page = page) => replies(target).last().locator('[data-chatrail-content]').innerText()
    async function send(text: string, target: Page = page): Promise<void> {
      await target.getByRole('textbox', { name: 'Message' }).fill(text)
      await target.keyboard.press('Enter')
    }
    /** Sends `text` and waits until its reply is in and the chat is idle again. */
    async function turn(text: string, target: Page = page): Promise<void> {
      const before = await replies(target).count()
      await send(text, target)
      await expect.poll(() => replies(target).count()).toBeGreaterThan(before)
      await idle(target)
    }

    it('a deterministic turn: the route answers, the badge advances, the agent is not called', async () => {
      await open()
      expect(await badge().getAttribute('data-chatrail-state')).toBe('greeting')
      expect(await page.getByRole('region', { name: 'Support chat' }).count()).toBe(1)
      await turn('/start')
      await page.locator('[data-chatrail-state-badge][data-chatrail-state="collecting"]').waitFor()
      expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('deterministic')
      expect(await badge().innerText()).toBe('Order lookup Ready')
      expect(await lastReplyText()).toBe('Sure. What is your order number? (for example #12345)')
      expect(await calls()).toBe(0)
    })

    it('a fallthrough: unmatched text reaches the agent, the state stays', async () => {
      await open()
      await turn('/start')
      await turn('where is my parcel')
      expect(await badge().getAttribute('data-chatrail-turn-kind')).toBe('agentic')
      expect(await lastReplyText()).toContain('(agent) I looked into “where is my parcel”')
      expect(await badge().getAttribute('data-chatrail-state')).toBe('collecting')
      expect(await calls()).toBe(1)
    })

    it('the event bar fires the state\'s UI events through history', async () => {
      await open()
      await turn('/start')
      await turn('#12345')
      expect(await page.getByRole('group', { name: 'Actions' }).getByRole('button').allInnerTexts()).toEqual(['Reship it', 'Talk to a person'])
      await page.getByRole('button', { name: 'Reship it' }).click()
      await page.locator('[data-chatrail-state-badge][data-chatrail-state="resolved"]').waitFor()
      await idle()
      expect(await lastReplyText()).toBe('Done: the order will be reshipped today.')
      expect(await page.getByRole('group', { name: 'Conversation ended' }).count()).toBe(1)
      expect(await calls()).toBe(0)
    })

    it('stop mid-stream: the reply keeps its text, marked Stopped, and the chat is idle', async () => {
      await open()
      await send('tell me the long story')
      const streaming = replies().last()
      await expect.poll(async () => (await streaming.innerText()).length, { timeout: 10_000 }).toBeGreaterThan(20)
      await page.getByRole('button', { name: 'Stop' }).click()
      await idle()
      const kept = await lastReplyText()
      expect(kept).toContain('Step 1')
      expect(await replies().last().getAttribute('data-chatrail-stopped')).toBe('')
      expect(await replies().last().locator('[data-chatrail-stopped-mark]').innerText()).toBe('Stopped')
      // nothing streams on after the stop
      await page.waitForTimeout(300)
      expect(await lastReplyText()).toBe(kept)
    })

    it('regenerate replays a decided turn without the agent; edit resends; retry asks a failed agent again', async () => {
      await open()
      await turn('/start')
      await replies().last().hover()
      await replies().last().getByRole('button', { name: 'Regenerate' }).click()
      await page.locator('[data-chatrail-state-badge][data-chatrail-replayed]').waitFor()
      await idle()
      expect(await lastReplyText()).toBe('Sure. What is your order number? (for example #12345)')
      expect(await calls()).toBe(0)

      const question = page.locator('[data-chatrail-message][data-chatrail-role="user"]').last()
      await question.hover()
      await question.getByRole('button', { name: 'Edit message' }).click()
      // Esc leaves the edit and gives the focus back to the Edit button
      await page.getByRole('textbox', { name: 'Edit message' }).press('Escape')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit message')
      expect(await page.getByRole('textbox', { name: 'Edit message' }).count()).toBe(0)
      await question.getByRole('button', { name: 'Edit message' }).click()
      await page.getByRole('textbox', { name: 'Edit message' }).fill('#12345')
      await page.getByRole('button', { name: 'Save and resend' }).click()
      await page.locator('[data-chatrail-state-badge][data-chatrail-state="greeting"]').waitFor()
      await idle()
      // the edit replaced "/start": from the greeting an order number is not a route, so the agent answers it
      expect(await userTexts()).toEqual(['#12345'])
      expect(await calls()).toBe(1)

      await send('this will fail')
      const banner = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Retry' }) })
      await banner.waitFor({ timeout: 10_000 })
      expect(await calls()).toBe(2)
      await banner.getByRole('button', { name: 'Retry' }).click()
      await expect.poll(calls).toBe(3)
      await banner.waitFor({ timeout: 10_000 })
    })

    it('a question dialog is answered from its card; a plan is approved', async () => {
      await open()
      await send('make a plan for the reship')
      const plan = page.getByRole('region', { name: 'The agent proposes a plan' })
      await plan.waitFor()
      // the plan's outline under the card's h3 title, the same in every binding (chatrail/view's
      // heading rule): "#" → h4, "##" → h5 (polled: the markdown chunk may still be on its way)
      await expect.poll(() => plan.locator('[data-chatrail-plan]').evaluate((element) => [...element.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((heading) => [heading.tagName, heading.textContent])))
        .toEqual([['H4', 'Reship the lost parcel'], ['H5', 'Steps'], ['H5', 'Commands']])
      expect(await page.getByRole('textbox', { name: 'Message' }).count()).toBe(0)
      expect(await badge().innerText()).toContain('Waiting for your review')
      await plan.getByRole('button', { name: 'Approve plan' }).click()
      await page.getByRole('group', { name: 'Plan (answered)' }).waitFor()
      await idle()
      expect(await page.getByRole('group', { name: 'Plan (answered)' }).innerText()).toContain('Approved')
      expect(await lastReplyText()).toContain('the plan is approved')

      await send('ask me something first')
      const card = page.getByRole('region', { name: 'The agent asks' })
      await card.waitFor()
      expect(await badge().innerText()).toContain('Waiting for your answer')
      await card.getByText('Team', { exact: true }).click()
      await card.getByRole('button', { name: 'Answer' }).click()
      const summary = page.getByRole('group', { name: 'Question (answered)' })
      await summary.waitFor()
      await idle()
      expect(await summary.innerText()).toContain('Team')
      expect(await lastReplyText()).toContain('Thanks — Team')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Message')
    })

    it('a component choice clicked twice is one interaction', async () => {
      await open()
      await turn('/options')
      const listbox = page.getByRole('listbox', { name: 'What should happen now?' })
      const reship = listbox.getByRole('option', { name: /Reship/ })
      await reship.click()
      await reship.click({ force: true })
      const answer = page.getByRole('log').getByText('Reshipping your order.')
      await answer.waitFor()
      await idle()
      await page.waitForTimeout(300)
      expect(await userTexts()).toEqual(['/options', 'Reship'])
      expect(await answer.count()).toBe(1)
      expect(await badge().getAttribute('data-chatrail-state')).toBe('greeting')
      expect(await reship.getAttribute('aria-selected')).toBe('true')
      expect(await listbox.getAttribute('aria-disabled')).toBe('true')
      expect(await calls()).toBe(0)
    })

    it('remote mode: turns run on the server, and a reload restores the history and the state', async () => {
      const conversation = `${name}-reload`
      const tab = await context.newPage()
      tab.on('pageerror', (error) => pageErrors.push(error.message))
      try {
        await open(tab, `mode=remote&c=${conversation}`)
        expect(await tab.locator('[data-chatrail-chat][data-chatrail-remote]').count()).toBe(1)
        await turn('/start', tab)
        await turn('#12345', tab)
        await tab.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor()
        expect((await store.load(conversation))?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
        await tab.reload()
        await tab.locator('[data-chatrail-state-badge][data-chatrail-state="confirming"]').waitFor()
        await expect.poll(() => tab.locator('[data-chatrail-message]').count()).toBe(4)
        expect(await userTexts(tab)).toEqual(['/start', '#12345'])
        expect(await lastReplyText(tab)).toBe('Order #12345 shows as lost in transit. Shall I reship it?')
        // the restored chat goes on where it was: the event bar of the stored state
        await tab.getByRole('button', { name: 'Reship it' }).click()
        await tab.locator('[data-chatrail-state-badge][data-chatrail-state="resolved"]').waitFor()
      } finally {
        await tab.close()
      }
    })

    it('a markdown answer: headings, a table, a code block with its copy button, a javascript: link inert, raw HTML as text', async () => {
      await open()
      await turn('show me the markdown')
      const answer = replies().last()
      await answer.locator('[data-chatrail-markdown] table').waitFor()
      // "##" under the chat's own heading: the answer's outline starts at h3, and it is its only heading
      expect(await answer.getByRole('heading', { level: 3, name: 'Reship options' }).count()).toBe(1)
      expect(await answer.getByRole('heading').count()).toBe(1)
      expect(await answer.getByRole('columnheader').allInnerTexts()).toEqual(['Option', 'Arrives', 'Cost'])
      expect(await answer.getByRole('cell').first().innerText()).toBe('Standard')
      const code = answer.locator('[data-chatrail-code]')
      expect(await code.locator('[data-chatrail-code-lang]').innerText()).toBe('sh')
      expect(await code.locator('pre code').innerText()).toBe('orders track 12345 --watch')
      // highlighted once the highlighter chunk is in (lowlight, loaded by the first block with a
      // language; this command has no keyword to colour, so its one token is plain text)
      await code.locator('pre[data-chatrail-highlighted] code').waitFor()
      await code.getByRole('button', { name: 'Copy sh code' }).click()
      await code.getByRole('button', { name: 'Copied' }).waitFor()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('orders track 12345 --watch')
      // the one safe link opens in a new tab without opener or referrer; `javascript:` is plain text
      const links = await answer.locator('[data-chatrail-content] a').evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]))
      expect(links).toEqual([['shipping policy', 'https://example.com/shipping', '_blank', 'noopener noreferrer']])
      const text = await answer.locator('[data-chatrail-content]').innerText()
      expect(text).toContain('not a link')
      expect(text).toContain('<b>raw html stays text</b>')
      expect(await answer.locator('[data-chatrail-content] :is(b, script, img)').count()).toBe(0)
    })

    it('a reply\'s reasoning, a long tool output cut with Show more, and its cited sources', async () => {
      await open()
      await turn('check the logs')
      const reply = replies().last()
      // the thinking is closed once the answer is complete, and opens on a click
      const thinking = reply.getByRole('button', { name: 'Thinking' })
      expect(await thinking.getAttribute('aria-expanded')).toBe('false')
      await thinking.click()
      expect(await thinking.getAttribute('aria-expanded')).toBe('true')
      expect(await reply.locator('[data-chatrail-reasoning-text]').innerText()).toBe('The carrier log shows every scan; read it first.')
      const card = reply.getByRole('region', { name: 'Tool read_carrier_log' })
      await card.getByRole('button', { name: 'read_carrier_log' }).click()
      const output = card.locator('[data-chatrail-tool-output]').last()
      const more = card.getByRole('button', { name: 'Show more' })
      expect(await more.getAttribute('aria-expanded')).toBe('false')
      expect((await output.innerText()).split('\n')).toEqual([...LOG_LINES.slice(0, 19), `${LOG_LINES[19] ?? ''}…`])
      await more.click()
      expect(await card.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true')
      expect(await output.innerText()).toBe(LOG_LINES.join('\n'))
      // a titled source by its title, another by its host
      const sources = reply.getByRole('navigation', { name: 'Sources' })
      expect(await sources.getByRole('link').evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')]))).toEqual([
        ['Carrier log', 'https://example.com/carrier-log', 'noopener noreferrer'],
        ['example.com', 'https://example.com/shipping', 'noopener noreferrer'],
      ])
    })

    it('jump to latest: a reader scrolled up while a reply streams is left there, and the button brings them back; sending brings them to the reply', async () => {
      // a short window, so that one answer already fills the list
      await page.setViewportSize({ width: 1280, height: 560 })
      try {
        await open()
        await turn('show me the markdown')
        await send('tell me the long story')
        const log = page.getByRole('log')
        const jump = page.getByRole('button', { name: 'Jump to latest' })
        await expect.poll(async () => (await replies().last().innerText()).length, { timeout: 10_000 }).toBeGreaterThan(20)
        // a following reader is kept at the bottom and is offered no button
        expect(await log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThanOrEqual(48)
        expect(await jump.count()).toBe(0)
        await log.evaluate((element) => { element.scrollTop = 0 })
        await jump.waitFor()
        // arriving text does not move a reader who scrolled up
        const length = (await replies().last().innerText()).length
        await expect.poll(async () => (await replies().last().innerText()).length).toBeGreaterThan(length)
        expect(await log.evaluate((element) => element.scrollTop)).toBe(0)
        await jump.click()
        await expect.poll(() => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThanOrEqual(48)
        expect(await jump.count()).toBe(0)
        expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('log')
        await page.getByRole('button', { name: 'Stop' }).click()
        await idle()
        // sending is an explicit act: a reader scrolled up is brought to the reply
        await log.evaluate((element) => { element.scrollTop = 0 })
        await turn('/start')
        await expect.poll(() => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThanOrEqual(48)
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 })
      }
    })

    it('a following reader is brought to the top of a newly arrived dialog card, not past it', async () => {
      // a short window (560 px high, as above), so that the plan's card is taller than the list
      onTestFinished(() => page.setViewportSize({ width: 1280, height: 900 }))
      await page.setViewportSize({ width: 1280, height: 560 })
      await open()
      await turn('show me the markdown')
      await send('make a plan for the reship')
      const plan = page.getByRole('region', { name: 'The agent proposes a plan' })
      await plan.waitFor()
      const offsetBelowListTop = () => plan.evaluate((card) => card.getBoundingClientRect().top - (card.closest('[role=log]')?.getBoundingClientRect().top ?? 0))
      await expect.poll(offsetBelowListTop).toBeLessThanOrEqual(1)
      const offset = await offsetBelowListTop()
      // the card's top, not the list's bottom: the rest of the plan is below
      expect(offset).toBeGreaterThanOrEqual(-1)
      expect(await page.getByRole('log').evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeGreaterThan(48)
    })

    it('switching versions keeps the focus on the picker of the version shown', async () => {
      await open()
      await turn('/start')
      await replies().last().hover()
      await replies().last().getByRole('button', { name: 'Regenerate' }).click()
      await idle()
      const picker = replies().last().getByRole('group', { name: 'Versions' })
      await picker.getByRole('button', { name: 'Previous version' }).click()
      await expect.poll(() => replies().last().locator('[data-chatrail-branch-count] [aria-hidden]').innerText()).toBe('1/2')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Previous version')
      expect(await replies().last().evaluate((element) => element.contains(document.activeElement))).toBe(true)
      await page.keyboard.press('Tab')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Next version')
      await page.keyboard.press('Enter')
      await expect.poll(() => replies().last().locator('[data-chatrail-branch-count] [aria-hidden]').innerText()).toBe('2/2')
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Next version')
    })

    it.each([
      [1280, 'light'],
      [1280, 'dark'],
      [390, 'light'],
      [390, 'dark'],
    ] as const)('axe finds no violations at %i px, %s', async (width, colorScheme) => {
      const themed = await browser.newContext({ viewport: { width, height: 844 }, colorScheme })
      const tab = await themed.newPage()
      tab.on('pageerror', (error) => pageErrors.push(error.message))
      try {
        await open(tab)
        const violations = await audit(tab, `${name} ${width} ${colorScheme} welcome`)
        await turn('/options', tab)
        await turn('/start', tab)
        // a reply with its "Thinking", a tool card and sources
        await turn('check the logs', tab)
        violations.push(...await audit(tab, `${name} ${width} ${colorScheme} conversation`))
        await send('ask me one thing', tab)
        await tab.getByRole('region', { name: 'The agent asks' }).waitFor()
        violations.push(...await audit(tab, `${name} ${width} ${colorScheme} question card`))
        expect(violations).toEqual([])
      } finally {
        await themed.close()
      }
    })
  })
}

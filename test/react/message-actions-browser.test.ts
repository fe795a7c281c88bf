import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findChromium } from './chromium.js'
import { captureState, openSupportExample, openTab, say, settled, type SupportExample } from './support-example.js'

// Issue #31 items 5, 6 and 12 in examples/react-support: actions on the message, a one-row
// composer, markdown, streaming and stopping, the composer's growth, what a screen reader hears.
// A file of its own (from browser.test.ts) so that it runs beside the example's other suites in
// parallel workers. Every test opens a tab of its own (support-example.ts's openTab).
const chromiumPath = findChromium()
const title = chromiumPath === undefined
  ? 'examples/react-support message actions in chromium — skipped: no `chromium` on PATH (.ci/run installs it with apt-get)'
  : 'examples/react-support message actions in chromium'

describe.skipIf(chromiumPath === undefined)(title, () => {
  let example: SupportExample
  beforeAll(async () => { example = await openSupportExample(chromiumPath as string) }, 60_000)
  afterAll(async () => { await example?.close() })

  // ---- issue #31 items 5, 6 and 12: actions on the message, a one-row composer, Jump to latest ----

  it('at 390 px the composer is one row: the textarea and one 40 px icon button (Send, then Stop) side by side', async () => {
    const tab = await openTab(example, 390)
    try {
      const row = (): Promise<Record<string, number | string>> => tab.evaluate(() => {
        const input = (document.querySelector('[data-chatrail-composer] [data-chatrail-input]') as HTMLElement).getBoundingClientRect()
        const buttons = [...document.querySelectorAll<HTMLElement>('[data-chatrail-composer] button')]
        const button = (buttons[0] as HTMLElement).getBoundingClientRect()
        return {
          buttons: buttons.map((element) => element.innerText === '' ? element.textContent ?? '' : element.innerText).join(','),
          besideInput: button.left >= input.right ? 'yes' : 'no',
          bottomsApart: Math.round(Math.abs(input.bottom - button.bottom)),
          buttonSize: `${button.width}x${button.height}`,
          inputWidth: Math.round(input.width),
          composerHeight: Math.round((document.querySelector('[data-chatrail-composer]') as HTMLElement).getBoundingClientRect().height),
        }
      })
      const idle = await row()
      expect(idle).toMatchObject({ buttons: 'Send', besideInput: 'yes', bottomsApart: 0, buttonSize: '40x40' })
      // The textarea takes the rest of the row: 390 − padding 2×12 − gap 8 − button 40.
      expect(idle['inputWidth']).toBeGreaterThanOrEqual(318 - 1)
      await say(tab, 'tell me the long story')
      await tab.locator('[data-chatrail-composer] [data-chatrail-stop]').waitFor()
      const streaming = await row()
      expect(streaming).toEqual({ ...idle, buttons: 'Stop' })
      await captureState(tab, 'composer-streaming')
      await tab.keyboard.press('Escape')
      await settled(tab)
    } finally {
      await tab.context().close()
    }
  })

  it('keyboard only: Tab from the log reaches each message’s actions, shown while focused; no invisible row under a message; 12 px between messages', async () => {
    const tab = await openTab(example, 1280)
    try {
      await say(tab, 'hello there')
      await settled(tab)
      await tab.mouse.move(0, 0)
      const boxes = await tab.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-chatrail-message]')].map((article) => {
        const box = article.getBoundingClientRect()
        const bubble = (article.querySelector('[data-chatrail-content]') as HTMLElement).getBoundingClientRect()
        return { top: box.top, bottom: box.bottom, belowBubble: Math.round(box.bottom - bubble.bottom) }
      }))
      // The user message's actions float (no room taken); the last reply's row is in the flow, shown.
      expect(boxes.map((box) => box.belowBubble)).toEqual([0, 30])
      expect(Math.round((boxes[1]?.top ?? 0) - (boxes[0]?.bottom ?? 0))).toBe(12)
      const focused = (): Promise<string> => tab.evaluate(() => {
        const active = document.activeElement as HTMLElement
        return `${active.closest('[data-chatrail-message]')?.getAttribute('data-chatrail-role') ?? '-'}: ${active.getAttribute('aria-label') ?? active.textContent ?? ''}`
      })
      await tab.getByRole('log').focus()
      const path: string[] = []
      for (let step = 0; step < 4; step += 1) {
        await tab.keyboard.press('Tab')
        path.push(await focused())
        if (step === 0) {
          // The floating row shows while a button in it has the keyboard focus.
          const actions = tab.locator('[data-chatrail-message][data-chatrail-role="user"] [data-chatrail-message-actions]')
          await expect.poll(() => actions.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
          await captureState(tab, 'keyboard-focus-1280')
        }
      }
      expect(path).toEqual(['user: Copy message', 'user: Edit message', 'assistant: Copy message', 'assistant: Regenerate'])
      const agentCalls = async (): Promise<number> => Number(await tab.getByTestId('agent-calls').textContent())
      const before = await agentCalls()
      await tab.keyboard.press('Enter')
      await expect.poll(() => tab.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 10_000 }).toBe('Message')
      await settled(tab)
      expect(await agentCalls()).toBe(before + 1)
      expect(await tab.locator('[data-chatrail-message]').count()).toBe(2)
    } finally {
      await tab.context().close()
    }
  })

  it('on a touch screen (hover: none) every message’s actions are shown, in the flow below its bubble', async () => {
    const context = await example.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    const tab = await context.newPage()
    try {
      await tab.goto(example.url)
      await tab.locator('[data-chatrail-suggestions]').waitFor()
      expect(await tab.evaluate(() => matchMedia('(hover: none)').matches)).toBe(true)
      await say(tab, 'hello there')
      await settled(tab)
      const rows = await tab.locator('[data-chatrail-message]').evaluateAll((articles) => articles.map((article) => {
        const row = article.querySelector('[data-chatrail-message-actions]') as HTMLElement
        const style = getComputedStyle(row)
        return [style.position, style.opacity, row.getBoundingClientRect().top >= (article.querySelector('[data-chatrail-content]') as HTMLElement).getBoundingClientRect().bottom]
      }))
      expect(rows).toEqual([['static', '1', true], ['static', '1', true]])
      await captureState(tab, 'touch-390')
    } finally {
      await context.close()
    }
  })

  it('under dir="rtl" the layout mirrors (the user’s bubble and its Send on the left) and code stays left to right', async () => {
    const tab = await openTab(example, 390)
    try {
      await tab.evaluate(() => { document.documentElement.dir = 'rtl' })
      await say(tab, 'markdown please')
      await tab.locator('[data-chatrail-code]').waitFor()
      await settled(tab)
      const layout = await tab.evaluate(() => {
        const box = (selector: string): DOMRect => (document.querySelector(selector) as HTMLElement).getBoundingClientRect()
        const pre = document.querySelector('[data-chatrail-code] pre') as HTMLElement
        return {
          userBubbleLeft: Math.round(box('[data-chatrail-role="user"] [data-chatrail-content]').left),
          replyRight: Math.round(box('[data-chatrail-role="assistant"] [data-chatrail-content]').right),
          sendLeftOfInput: box('[data-chatrail-send]').right <= box('[data-chatrail-composer] [data-chatrail-input]').left,
          code: [getComputedStyle(pre).direction, getComputedStyle(pre).textAlign],
        }
      })
      expect(layout).toEqual({ userBubbleLeft: 12, replyRight: 390 - 12, sendLeftOfInput: true, code: ['ltr', 'left'] })
      await captureState(tab, 'rtl-390')
    } finally {
      await tab.context().close()
    }
  })

  it('markdown answers: a table, a labelled code block whose copy button copies, safe links, a copy action on every message', async () => {
    const tab = await openTab(example, 1280)
    try {
      await say(tab, 'markdown please')
      await tab.locator('[data-chatrail-code]').waitFor()
      await settled(tab)
      const reply = tab.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last()
      expect(await reply.locator('h3').innerText()).toBe('Reship options')
      expect(await reply.locator('table tr').count()).toBe(3)
      expect(await reply.locator('[data-chatrail-code-lang]').innerText()).toBe('sh')
      // Highlighted by the lazily loaded highlighter, as React text: the code reads the same.
      await reply.locator('pre[data-chatrail-highlighted]').waitFor()
      expect(await reply.locator('pre[data-chatrail-highlighted]').innerText()).toBe('orders track 12345 --watch')
      expect(await reply.locator('a[href^="javascript"], b').count()).toBe(0)
      expect(await reply.locator('a', { hasText: 'shipping policy' }).getAttribute('rel')).toBe('noopener noreferrer')
      await reply.getByRole('button', { name: 'Copy sh code' }).click()
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe('orders track 12345 --watch')
      await reply.getByRole('button', { name: 'Copied' }).waitFor()
      await reply.hover()
      await reply.getByRole('button', { name: 'Copy message' }).click()
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toContain('| Standard | 3–5 days | free |')
      const user = tab.locator('[data-chatrail-message][data-chatrail-role="user"]').last()
      await user.hover()
      await user.getByRole('button', { name: 'Copy message' }).click()
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe('markdown please')
    } finally {
      await tab.context().close()
    }
  })

  it('streaming: a caret while text grows; Esc stops and the reply keeps its text, marked Stopped; a stop before the first word leaves no bubble', async () => {
    const tab = await openTab(example, 390)
    try {
      await say(tab, 'the long story please')
      const reply = tab.locator('[data-chatrail-message][data-chatrail-role="assistant"]').last()
      await reply.filter({ hasText: 'Step 1' }).waitFor()
      const caret = await reply.evaluate((el) => {
        const last = el.querySelector('[data-chatrail-markdown] > :last-child') as Element
        return getComputedStyle(last, '::after').content
      })
      expect(caret).toBe('"▍"')
      await tab.keyboard.press('Escape')
      await settled(tab)
      expect(await reply.getAttribute('data-chatrail-stopped')).toBe('')
      expect(await reply.locator('[data-chatrail-stopped-mark]').isVisible()).toBe(true)
      expect(await reply.innerText()).toContain('Step 1')
      expect(await tab.locator('[data-chatrail-status-words]').innerText()).toBe('Ready')
      const before = await tab.locator('[data-chatrail-message]').count()
      await say(tab, 'think first')
      await tab.locator('[data-chatrail-chat][data-chatrail-status="streaming"]').waitFor()
      await tab.keyboard.press('Escape')
      await settled(tab)
      expect(await tab.locator('[data-chatrail-message]').count()).toBe(before + 1)
    } finally {
      await tab.context().close()
    }
  })

  it('the Edit button is a quiet icon of at least 24×24 px, shown on hover or focus without moving anything', async () => {
    const tab = await openTab(example, 1280)
    try {
      await say(tab, 'hello there')
      await settled(tab)
      const user = tab.locator('[data-chatrail-message][data-chatrail-role="user"]').last()
      const actions = user.locator('[data-chatrail-message-actions]')
      await tab.mouse.move(0, 0)
      const hidden = { opacity: await actions.evaluate((el) => getComputedStyle(el).opacity), box: await user.boundingBox() }
      await user.hover()
      await expect.poll(() => actions.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
      expect(hidden.opacity).toBe('0')
      expect(await user.boundingBox()).toEqual(hidden.box)
      const edit = user.getByRole('button', { name: 'Edit message' })
      const size = await edit.boundingBox()
      expect(size?.width).toBeGreaterThanOrEqual(24)
      expect(size?.height).toBeGreaterThanOrEqual(24)
      await edit.click()
      const box = tab.getByRole('textbox', { name: 'Edit message' })
      // Focus moves in an effect after React commits: poll (bounded) rather than read once, so a busy machine does not fail it.
      await expect.poll(() => box.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true)
      await tab.keyboard.press('Escape')
      await expect.poll(() => box.count(), { timeout: 10_000 }).toBe(0)
      await expect.poll(() => edit.evaluate((el) => el === document.activeElement), { timeout: 10_000 }).toBe(true)
    } finally {
      await tab.context().close()
    }
  })

  it('the composer grows with its text up to a limit', async () => {
    const tab = await openTab(example, 390)
    try {
      const input = tab.getByRole('textbox', { name: 'Message' })
      const height = (): Promise<number> => input.evaluate((el) => el.getBoundingClientRect().height)
      const one = await height()
      await input.fill('line\n'.repeat(4))
      const five = await height()
      await input.fill('line\n'.repeat(60))
      const many = await height()
      expect(five).toBeGreaterThan(one + 40)
      expect(many).toBeLessThanOrEqual(844 * 0.3 + 1)
      expect(many).toBeGreaterThan(five)
    } finally {
      await tab.context().close()
    }
  })

  it('a streamed reply is announced once, when complete: the log is not a live region', async () => {
    const tab = await openTab(example, 1280)
    try {
      expect(await tab.getByRole('log').getAttribute('aria-live')).toBe('off')
      // The observers are installed on the regions present now: wait for the announcer to mount
      // (on a loaded machine it can come after the suggestions openTab waits for).
      await tab.locator('[data-chatrail-announcer]').waitFor({ state: 'attached' })
      await tab.evaluate(() => {
        const regions = [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]')]
        const counts = regions.map(() => 0)
        regions.forEach((region, i) => new MutationObserver((records) => { counts[i] = (counts[i] ?? 0) + records.length })
          .observe(region, { childList: true, characterData: true, subtree: true, attributes: false }))
        Object.assign(window, { liveCounts: () => regions.map((region, i) => [region.hasAttribute('data-chatrail-announcer') ? 'announcer' : 'other', counts[i], region.textContent]) })
      })
      await say(tab, 'where is my parcel?')
      await settled(tab)
      const counts = await tab.evaluate(() => (window as unknown as { liveCounts: () => Array<[string, number, string]> }).liveCounts())
      const announcer = counts.find(([kind]) => kind === 'announcer')
      expect(announcer?.[1]).toBe(1)
      expect(announcer?.[2]).toContain('(agent) I looked into “where is my parcel?”')
      // Everything polite together: the announcement plus the badge's Working… / Ready (35 mutations before).
      expect(counts.reduce((total, [, count]) => total + count, 0)).toBeLessThanOrEqual(5)
    } finally {
      await tab.context().close()
    }
  })
})

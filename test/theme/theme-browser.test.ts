import { readFileSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatThemeCss } from '../../src/conversation/theme.js'
import { findChromium, launchChromium } from '../react/chromium.js'

/**
 * The theme's stylesheet in Chromium, beside chatrail's own (loaded after it, the order that loses
 * on equal specificity): the theme's light colours by default, its dark ones under
 * prefers-color-scheme: dark and under `.chatrail-dark`, light again under `.chatrail-light`.
 */

const chromiumPath = findChromium()
const stylesheet = readFileSync(new URL('../../renderers/react/styles.css', import.meta.url), 'utf8')
const theme = { colors: { accent: '#123456' }, schemes: { dark: { accent: '#abcdef' } } }

describe.skipIf(chromiumPath === undefined)(`a theme in Chromium${chromiumPath === undefined ? ' — skipped: no chromium on PATH' : ''}`, () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchChromium(chromiumPath ?? '')
  })
  afterAll(async () => {
    await browser?.close()
  })

  it.each([
    ['light', '', '#123456'],
    ['dark', '', '#abcdef'],
    ['light', 'chatrail-dark', '#abcdef'],
    ['dark', 'chatrail-light', '#123456'],
  ] as const)('prefers %s, <html class="%s">: the accent is %s', async (scheme, htmlClass, accent) => {
    const page = await browser.newPage()
    try {
      await page.emulateMedia({ colorScheme: scheme })
      // the theme first, chatrail's stylesheet after it: the theme still wins
      await page.setContent(`<html class="${htmlClass}"><head><style>${chatThemeCss(theme)}</style><style>${stylesheet}</style></head><body><div data-chatrail-chat>chat</div><div>not a chat</div></body></html>`)
      const read = (selector: string) => page.evaluate((s) => getComputedStyle(document.querySelector(s) as Element).getPropertyValue('--chatrail-accent').trim(), selector)
      expect(await read('[data-chatrail-chat]')).toBe(accent)
      // outside a chat nothing is set
      expect(await read('body > div:last-child')).toBe('')
    } finally {
      await page.close()
    }
  })
})

import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { exampleBuild } from '../support/example-build.js'
import { launchChromium } from '../react/chromium.js'
import { serveDirectory } from '../react/static-server.js'

/**
 * One of the bindings' examples (examples/vue-support, examples/svelte-support) as its suite opens
 * it: built with Vite's JS API from its own vite.config.ts (an app's toolchain; once per state of the
 * sources, test/support/example-build.ts), the build served
 * on 127.0.0.1, and loaded in Chromium until the status line is drawn. `errors` collects the page's
 * uncaught errors, which a suite expects to stay empty.
 */
export interface ExamplePage {
  readonly page: Page
  readonly errors: readonly string[]
  close: () => Promise<void>
}

export async function openExample(name: string, chromiumPath: string, pageOptions: BrowserContextOptions): Promise<ExamplePage> {
  const server = await serveDirectory(await exampleBuild(name))
  let browser: Browser | undefined
  try {
    browser = await launchChromium(chromiumPath)
    const page = await browser.newPage(pageOptions)
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(server.url)
    await page.locator('[data-chatrail-state-badge]').waitFor()
    const opened = browser
    return { page, errors, close: async () => { await opened.close(); await server.close() } }
  } catch (error) {
    await browser?.close()
    await server.close()
    throw error
  }
}

import { execFileSync } from 'node:child_process'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'

/** Debian's chromium (`.ci/run` installs it with apt-get), found the way a shell would. */
export function findChromium(): string | undefined {
  let path: string | undefined
  try {
    path = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    path = undefined
  }
  // The browser suites skip (with the reason in their titles) only outside CI: under CI a missing
  // chromium is .ci/run's failure, and must not pass as a green run that tested no browser.
  if (path === undefined && process.env.CI && process.env.CI !== 'false') throw new Error('CI is set but there is no `chromium` on PATH: .ci/run must install it (apt-get install chromium) before the tests.')
  return path
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

import { execFileSync } from 'node:child_process'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'

/** Debian's chromium (`.ci/run` installs it with apt-get), found the way a shell would. */
export function findChromium(): string | undefined {
  try {
    const path = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim()
    return path === '' ? undefined : path
  } catch {
    return undefined
  }
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliBundle } from '../support/cli-bundle.js'
import { projectRoot, startBundledDemo } from './demo-driver.js'
import { captureDemoScreen, screenAfterAgentProbe } from './demo-screen.js'

/**
 * The README shows a captured demo session (docs/demo-screen.txt). Both must stay what `npm start`
 * really shows: the README block is the file, and the file is today's demo screen from the hint on
 * (re-capture with `npx tsx test/ink/capture-demo-screen.ts` after changing the demo).
 */
const captured = readFileSync(join(projectRoot, 'docs', 'demo-screen.txt'), 'utf8')

describe('the demo screen in the README', () => {
  it('is docs/demo-screen.txt, verbatim', () => {
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8')
    const block = /## The demo[\s\S]*?```text\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block).toBe(captured)
  })

  it('is what `npm start` shows today, from the "Try …" hint on', async () => {
    // the demo from the CLI built once (test/support/cli-bundle.ts): the screen `npm start` shows,
    // without npm and tsx starting first; test/ink/ink-pty.test.ts runs `npm start` itself
    const cli = await cliBundle()
    const screen = await captureDemoScreen(['--agent', 'offline'], (args, options) => startBundledDemo(cli, args, options))
    expect(screenAfterAgentProbe(screen)).toBe(screenAfterAgentProbe(captured))
  }, 90_000)
})

import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot, terminalEnv } from '../../ink/demo-driver.js'
import { startPty } from '../../ink/pty-terminal.js'
import type { PtyTerminal } from '../../ink/pty-terminal.js'
import { appendLines, makeFakeHome, placeCodex } from './fake-home.js'
import type { FakeHome } from './fake-home.js'
import { cliBundle } from '../../support/cli-bundle.js'

/**
 * `chatrail sessions --watch` in a real pseudo-terminal over a fake home: the table updates in place
 * when a rollout grows, the bell rings and a line is printed when the finished turn has settled
 * (the CLI's default 10 s), and `q` quits with exit code 0. About 15 s.
 */

// the CLI built once and started with plain node (test/support/cli-bundle.ts), not through tsx (1–2 s a start)
const cli = await cliBundle()
const running: PtyTerminal[] = []
let home: FakeHome | undefined
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
  home?.cleanup()
  home = undefined
})

describe('chatrail sessions --watch (pty)', () => {
  it('updates the row in place, rings and prints on the notification, quits on q', async () => {
    home = makeFakeHome()
    const thread = placeCodex(home, 'plain-turn', { lines: 9, sessionId: randomUUID(), endsAgoMs: 30_000 })
    const env = terminalEnv()
    delete env.CODEX_HOME
    const terminal = startPty(process.execPath, [cli, 'sessions', '--watch', '--no-opencode-url', '--home', home.home], { cwd: projectRoot, env, cols: 120, rows: 20 })
    running.push(terminal)
    let screen = await terminal.waitFor((text) => /codex\s.*\srunning\s+\d+s ago/.test(text), 45_000)
    expect(screen).toMatch(/AGENT\s+PROJECT\s+TITLE\s+STATE\s+ACTIVE/)
    expect(screen).toContain('watching 1 session · q quits')

    appendLines(thread)
    screen = await terminal.waitFor((text) => /codex\s.*\scompleted\s+now/.test(text), 10_000)
    // In place: the table is on the screen once, the running row is gone.
    expect(screen.match(/AGENT\s+PROJECT/g)).toHaveLength(1)
    expect(screen).not.toMatch(/\s+running\s+/)

    screen = await terminal.waitFor((text) => text.includes('▲ completed: codex'), 20_000)
    expect(screen).toMatch(/▲ completed: codex \S+ — Say hello\./)
    expect(terminal.raw()).toContain('\u0007')

    terminal.write('q')
    expect((await terminal.exited).exitCode).toBe(0)
  }, 60_000)
})

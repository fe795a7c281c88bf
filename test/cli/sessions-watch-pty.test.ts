import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { appendLines, makeFakeHome, placeCodex } from '../agents/monitor/fake-home.js'
import type { FakeHome } from '../agents/monitor/fake-home.js'
import { projectRoot, terminalEnv } from '../ink/demo-driver.js'
import { startPty } from '../ink/pty-terminal.js'
import type { PtyTerminal } from '../ink/pty-terminal.js'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * `chatrail sessions --watch` in a real pseudo-terminal (node-pty, read through xterm headless)
 * that is narrower and shorter than the table: every row stays one line (cut with …, never
 * wrapped), and a notification stays on the screen, pinned above the footer, while the table keeps
 * redrawing, instead of being printed above a table taller than the screen and scrolled away.
 * About 15 s (the CLI's notification settle time is 10 s).
 */

// the CLI built once and started with plain node (test/support/cli-bundle.ts), not through tsx (1–2 s a start)
const cli = await cliBundle()
const COLS = 60
const ROWS = 10
const running: PtyTerminal[] = []
let home: FakeHome | undefined
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
  home?.cleanup()
  home = undefined
})

/** The screen's last `ROWS` lines: what a person sees once the output is taller than the window. */
const visible = (screen: string): string[] => screen.split('\n').slice(-ROWS)

describe('chatrail sessions --watch (pty, 60×10)', () => {
  it('fits the width and keeps the notification pinned on the screen', async () => {
    home = makeFakeHome()
    for (let index = 0; index < 12; index += 1) placeCodex(home, 'failing-command', { sessionId: randomUUID(), endsAgoMs: 600_000 + index * 60_000 })
    const thread = placeCodex(home, 'plain-turn', { lines: 9, sessionId: randomUUID(), endsAgoMs: 30_000 })
    const env = terminalEnv()
    delete env.CODEX_HOME
    delete env.COLUMNS
    const terminal = startPty(process.execPath, [cli, 'sessions', '--watch', '--no-opencode-url', '--home', home.home], { cwd: projectRoot, env, cols: COLS, rows: ROWS })
    running.push(terminal)
    await terminal.waitFor((text) => /codex\s.*\srunning\s+\d+s ago/.test(text) && text.includes('watching 13 sessions'), 45_000)

    appendLines(thread)
    let screen = await terminal.waitFor((text) => visible(text).some((line) => line.startsWith('▲ completed: codex')), 25_000)
    const pinned = (text: string) => {
      const lines = visible(text)
      const footer = lines.findIndex((line) => line.startsWith('watching 13 sessions · q quits'))
      return footer > 0 && /^▲ completed: codex \S+ — Say hello\.$/.test(lines[footer - 1] ?? '')
    }
    expect(pinned(screen), screen).toBe(true)
    expect(terminal.raw()).toContain('\u0007')

    // Two redraws later (the ages tick every second) it is still there, and still just once.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    screen = await terminal.waitFor(pinned, 5_000)
    expect(visible(screen).filter((line) => line.startsWith('▲'))).toHaveLength(1)
    // Every line on the screen is a whole row: a terminal that wrapped one would show a continuation line.
    for (const line of visible(screen)) expect(line, screen).toMatch(/^(AGENT\s|codex\s|▲ |watching )/)
    for (const line of visible(screen).filter((row) => row.startsWith('codex'))) expect(line, screen).toMatch(/ (now|\d+[smh] ago)$/)
    // The long titles ("Show me what is in /definitely-missing-dir.") were cut to fit.
    expect(visible(screen).filter((line) => /^codex .*Show me .*… .* ago$/.test(line)).length, screen).toBeGreaterThan(3)

    // Widened, the table refits: the titles are whole again, and the notice is still pinned.
    terminal.resize(100, ROWS)
    screen = await terminal.waitFor((text) => visible(text).some((line) => /^codex .*Show me what is in \/definitely-missing-dir\. .* ago$/.test(line)) && pinned(text), 10_000)
    expect(visible(screen).filter((line) => line.startsWith('▲'))).toHaveLength(1)

    terminal.write('q')
    expect((await terminal.exited).exitCode).toBe(0)
  }, 90_000)
})

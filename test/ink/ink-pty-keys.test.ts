import { afterEach, describe, expect, it } from 'vitest'
import { scriptBundle } from '../support/cli-bundle.js'
import { projectRoot as root, terminalEnv } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

/**
 * Keys as a real terminal delivers them: several in one read (a burst), a paste, and a window
 * resized under a running chat. The fixture app is <InkChat> over the order workflow
 * (test/ink/fixtures/order-chat-app.tsx) in a pseudo-terminal read through a headless xterm.
 */

// The fixture app built once with esbuild and started with plain node (test/support/cli-bundle.ts):
// started through tsx, each start spent 1–2 s loading tsx and transforming the app's source graph.
const orderChatApp = await scriptBundle('test/ink/fixtures/order-chat-app.tsx')
const planDialogApp = await scriptBundle('test/ink/fixtures/plan-dialog-app.tsx')
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

function fixtureApp(cols = 100, rows = 40): PtyTerminal {
  const terminal = startPty(process.execPath, [orderChatApp], { cwd: root, env: terminalEnv(), cols, rows })
  running.push(terminal)
  return terminal
}

const reply = 'The agent answers: your parcel left the warehouse this morning and should arrive within two working days; the tracking number follows by email.'
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, `g${pattern.flags}`))?.length ?? 0

describe('<InkChat> keys in a real pseudo-terminal', () => {
  it('applies every key of a burst, sends text written with its Enter, and keeps a paste’s line breaks as lines, never Enter', async () => {
    const terminal = fixtureApp()
    await terminal.waitFor('state start · last turn none', 45_000)
    // The mode is asked for in an effect, after the first frame: wait for it rather than expect
    // it in the same read as the frame (a loaded machine delivered them apart).
    await terminal.waitFor(() => terminal.raw().includes('\u001B[?2004h'), 10_000)
    // One write: three characters too many, then three backspaces, one character each.
    terminal.write('/startxyz')
    await terminal.waitFor('› /startxyz')
    terminal.write('\u007F\u007F\u007F')
    await terminal.waitFor((screen) => /› \/start\s*$/m.test(screen))
    terminal.write(keys.enter)
    await terminal.waitFor('state order')
    // Text and Enter in one write, as a fast typist or a script sends them: it is sent.
    terminal.write('1234\r')
    let screen = await terminal.waitFor('Order 1234. Is that right?')
    expect(screen).toContain('state confirm')
    expect(screen).not.toMatch(/› 1234/)
    // A bracketed paste with line breaks is text, its lines kept: nothing is sent until Enter.
    terminal.write(keys.paste('where is\rmy parcel?\r'))
    await terminal.waitFor((text) => /^› where is\n {2}my parcel\?\n\s*$/m.test(text))
    // Without bracketed paste, a line break followed by more text in one read is a paste too.
    terminal.write(' and\rwhen')
    screen = await terminal.waitFor((text) => /^› where is\n {2}my parcel\?\n {3}and\n {2}when\s*$/m.test(text))
    expect(screen).not.toContain('bot · agentic')
    terminal.write(keys.enter)
    screen = await terminal.waitFor('last turn agentic')
    expect(screen).toContain('you\nwhere is\nmy parcel?\n and\nwhen\n')
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
    expect(terminal.raw()).toContain('\u001B[?2004l')
  }, 60_000)

  it('prints the log again after a resize: one status line, no word broken, every line within the new width', async () => {
    const terminal = fixtureApp(100, 40)
    await terminal.waitFor('state start · last turn none', 45_000)
    for (const text of ['/start', '1234', 'where is it?']) {
      terminal.write(text)
      await terminal.waitFor(`› ${text}`)
      terminal.write(keys.enter)
      await terminal.waitFor((screen) => screen.includes(`you\n${text}\n`) && /state \w+ · last turn/.test(screen))
    }
    await terminal.waitFor('last turn agentic')
    terminal.resize(60, 40)
    let screen = await terminal.waitFor((text) => /^state confirm · last turn agentic/m.test(text) && text.includes('you\n/start'), 15_000)
    // Let the settle timer and Ink's redraw run, then read the whole buffer (scrollback too).
    await new Promise((resolve) => setTimeout(resolve, 500))
    screen = await terminal.waitFor((text) => text.includes('last turn agentic'))
    expect(count(screen, /^state confirm · last turn/m)).toBe(1)
    expect(count(screen, /^you\n\/start$/m)).toBe(1)
    expect(Math.max(...screen.split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(60)
    const words = screen.split(/\s+/)
    for (const word of reply.split(' ')) expect(words).toContain(word)

    terminal.resize(100, 40)
    await new Promise((resolve) => setTimeout(resolve, 500))
    screen = await terminal.waitFor((text) => text.includes('last turn agentic'))
    expect(count(screen, /^state confirm · last turn/m)).toBe(1)
    expect(count(screen, /^you\n\/start$/m)).toBe(1)
    expect(screen).toContain('bot · agentic\nThe agent answers: your parcel left the warehouse this morning and should arrive within two working\ndays;')
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
  }, 60_000)
})

describe('an agent plan in a 60-column terminal', () => {
  it('renders the markdown within 60 columns, scrolls inside the picker, closes on Esc, reopens on Tab, and logs Plan → Approved', async () => {
    const terminal = startPty(process.execPath, [planDialogApp], { cwd: root, env: terminalEnv(), cols: 60, rows: 24 })
    running.push(terminal)
    let screen = await terminal.waitFor('The agent proposes a plan', 45_000)
    expect(screen).toMatch(/│ Orders migration +│/)
    expect(screen).toMatch(/│ Move the orders table to the new schema\. +│/)
    expect(screen).not.toMatch(/\*\*|`|^# /m)
    expect(Math.max(...screen.split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(60)
    // The whole picker, the status line and the note fit the 24 rows: nothing scrolled off.
    expect(screen.split('\n').length).toBeLessThanOrEqual(24)
    expect(screen).toMatch(/lines 1–\d+ of \d+ · PgUp\/PgDn scroll/)
    expect(screen).not.toContain('ALTER TABLE')
    terminal.write(keys.end)
    screen = await terminal.waitFor('ALTER TABLE orders RENAME TO orders_old;')
    expect(screen).not.toContain('Orders migration')
    terminal.write(keys.escape)
    screen = await terminal.waitFor('Tab answer the agent')
    expect(screen).not.toContain('The agent proposes a plan')
    terminal.write(keys.tab)
    await terminal.waitFor('The agent proposes a plan')
    terminal.write(keys.enter)
    screen = await terminal.waitFor('Migrating now.')
    expect(screen).toContain('agent · plan\nPlan: Orders migration → Approved\n\nyou\nApproved, go ahead.')
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
  }, 60_000)
})

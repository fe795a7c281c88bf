import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot as root, terminalEnv } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

/**
 * The composer as a real 80×24 terminal delivers keys to it: a bracketed paste of several lines,
 * the prompt history on ↑, Ctrl+R's reverse search, and a footer and status line that fit the
 * width. The fixture app is <InkChat> over the order workflow (test/ink/fixtures/order-chat-app.tsx).
 */

const tsx = join(root, 'node_modules', '.bin', 'tsx')
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

describe('the composer in a real 80×24 pseudo-terminal', () => {
  it('keeps a pasted text’s 5 lines, walks back two prompts with ↑↑, finds an earlier one with Ctrl+R, and never writes past 80 columns', async () => {
    const terminal = startPty(tsx, [join(root, 'test', 'ink', 'fixtures', 'order-chat-app.tsx')], { cwd: root, env: terminalEnv(), cols: 80, rows: 24 })
    running.push(terminal)
    await terminal.waitFor('state start · last turn none', 45_000)
    await terminal.waitFor(() => terminal.raw().includes('\u001B[?2004h'), 10_000)
    // the idle hint, fitted to 80 columns: the least important keys dropped
    expect(terminal.screen()).toContain('\nEnter send · ↑ history · Esc Esc edit last · Ctrl+J newline · Ctrl+C quit')

    terminal.write(keys.paste('line one\r\nline two\rline three\nline four\nline five'))
    let screen = await terminal.waitFor('› line one\n  line two\n  line three\n  line four\n  line five')
    expect(screen).not.toContain('you\n')
    terminal.write(keys.enter)
    screen = await terminal.waitFor('last turn agentic')
    expect(screen).toContain('you\nline one\nline two\nline three\nline four\nline five\n')

    for (const prompt of ['/start', '1234']) {
      terminal.write(prompt)
      await terminal.waitFor(`› ${prompt}`)
      terminal.write(keys.enter)
      await terminal.waitFor((text) => text.includes(`you\n${prompt}\n`) && /^›\s*$/m.test(text))
    }
    await terminal.waitFor('Order 1234. Is that right?')
    terminal.write(keys.up)
    await terminal.waitFor((text) => /^› 1234\s*$/m.test(text))
    terminal.write(keys.up)
    screen = await terminal.waitFor((text) => /^› \/start\s*$/m.test(text))
    expect(screen).not.toContain('edit ›')

    // Esc clears the composer (and the history walk starts again from a new draft)
    terminal.write(keys.escape)
    await terminal.waitFor((text) => /^›\s*$/m.test(text))
    terminal.write(keys.ctrlR)
    await terminal.waitFor("(reverse-i-search)`':")
    terminal.write('three')
    // the match's lines joined with ↵, cut with … at the terminal's width
    await terminal.waitFor("(reverse-i-search)`three': line one ↵ line two ↵ line three ↵ line four ↵ line …")
    terminal.write(keys.enter)
    screen = await terminal.waitFor('› line one\n  line two\n  line three\n  line four\n  line five')
    // accepted, not sent: the pasted prompt is in the log once
    expect(screen.split('you\nline one').length - 1).toBe(1)

    // Ink wrote no line wider than the terminal: no row is a soft-wrapped continuation
    expect(terminal.wrappedRows()).toEqual([])
    expect(Math.max(...terminal.screen().split('\n').map((line) => [...line].length))).toBeLessThanOrEqual(80)
    terminal.write(keys.ctrlC)
    expect((await terminal.exited).exitCode).toBe(0)
  }, 60_000)
})

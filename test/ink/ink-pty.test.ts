import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { projectRoot as root, terminalEnv } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

const tsx = join(root, 'node_modules', '.bin', 'tsx')
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

function fixtureApp(): PtyTerminal {
  const terminal = startPty(tsx, [join(root, 'test', 'ink', 'fixtures', 'order-chat-app.tsx')], {
    cwd: root,
    env: terminalEnv(),
  })
  running.push(terminal)
  return terminal
}

describe('<InkChat> in a real pseudo-terminal (fixture app)', () => {
  it('takes typing, Enter, Alt+digit and Esc in raw mode, and quits with Ctrl+D, exit code 0', async () => {
    const terminal = fixtureApp()
    await terminal.waitFor('state start · last turn none · agent scripted', 45_000)
    terminal.write('/start')
    await terminal.waitFor('› /start')
    terminal.write(keys.enter)
    let screen = await terminal.waitFor('state order')
    expect(screen).toContain('Hi! What is your order number?')
    expect(screen).toContain('Alt+2 escalate')
    terminal.write(keys.alt(2))
    screen = await terminal.waitFor('state human (final)')
    expect(screen).toContain('Connecting you to a human.')
    terminal.write('draft')
    await terminal.waitFor('› draft')
    terminal.write(keys.escape)
    await terminal.waitFor((text) => !text.includes('› draft'))
    terminal.write(keys.ctrlD)
    expect(await terminal.exited).toEqual({ exitCode: 0, signal: 0 })
    expect(terminal.screen()).toContain('fixture exited cleanly')
  }, 60_000)
})

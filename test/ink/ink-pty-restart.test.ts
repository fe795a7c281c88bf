import { afterEach, describe, expect, it } from 'vitest'
import { scriptBundle } from '../support/cli-bundle.js'
import { projectRoot as root, terminalEnv } from './demo-driver.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

// Issue 21 on issue 19's restart and re-prompts, in a real pseudo-terminal: a final state offers
// Start over on a key, and a refusal (a re-prompt, not a failure) is not coloured as an error.
// The fixture app built once with esbuild and started with plain node (test/support/cli-bundle.ts):
// started through tsx, each start spent 1–2 s loading tsx and transforming the app's source graph.
const restartChatApp = await scriptBundle('test/ink/fixtures/restart-chat-app.tsx')
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

/** The SGR colour codes that start right before `text` in the raw output (FORCE_COLOR=1: 16 colours). */
function coloursBefore(raw: string, text: string): string[] {
  const codes: string[] = []
  // eslint-disable-next-line no-control-regex -- matching the terminal's own escape sequences
  for (const match of raw.matchAll(/\u001B\[(\d+)m([^\u001B]*)/g)) if (match[2]?.startsWith(text)) codes.push(match[1] as string)
  return codes
}

describe('<InkChat> Start over and re-prompts in a real pseudo-terminal', () => {
  it('colours a refused turn as a notice, offers Start over after the final state, and Alt+1 restarts', async () => {
    const terminal = startPty(process.execPath, [restartChatApp], { cwd: root, env: terminalEnv() })
    running.push(terminal)
    await terminal.waitFor('state start · last turn none · agent scripted', 45_000)
    terminal.write('/start')
    await terminal.waitFor('› /start')
    terminal.write(keys.enter)
    await terminal.waitFor('state order')

    // The guard refuses without an order number: the route's re-prompt answers, outcome `refused`.
    terminal.write('yes')
    await terminal.waitFor('› yes')
    terminal.write(keys.enter)
    let screen = await terminal.waitFor('last turn deterministic (confirm) refused')
    expect(screen).toContain('I need your order number first.')
    const colours = coloursBefore(terminal.raw(), ' refused')
    expect(colours.length).toBeGreaterThan(0)
    expect(new Set(colours)).toEqual(new Set(['33'])) // yellow in every frame, never red (31)

    terminal.write('12345')
    await terminal.waitFor('› 12345')
    terminal.write(keys.enter)
    await terminal.waitFor('Noted. Say yes to confirm.')
    terminal.write('yes')
    await terminal.waitFor('› yes')
    terminal.write(keys.enter)
    screen = await terminal.waitFor('state done (final)')
    // The end of the conversation, and its key: a label, not the raw UI event.
    screen = await terminal.waitFor('conversation ended  Alt+1 Start over  Alt+2 Rate')
    expect(screen).not.toMatch(/restart/i)

    terminal.write(keys.alt(1))
    screen = await terminal.waitFor('last turn deterministic (start-over)')
    expect(screen).toContain('Starting over.')
    expect(screen).toContain('state start · last turn')
    expect(screen).not.toContain('(final)')
    expect(screen).not.toContain('conversation ended')

    // And the conversation carries on from `initial`.
    terminal.write('/start')
    await terminal.waitFor('› /start')
    terminal.write(keys.enter)
    await terminal.waitFor((text) => text.split('Your order number?').length === 3)
    terminal.write(keys.ctrlD)
    expect(await terminal.exited).toEqual({ exitCode: 0, signal: 0 })
  }, 90_000)
})

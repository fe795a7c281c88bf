import { afterEach, describe, expect, it } from 'vitest'
import { scriptBundle } from '../support/cli-bundle.js'
import { createOfflineAdapter } from '../../src/cli/demo/offline-adapter.js'
import { demoDefinition, demoRoutes } from '../../src/cli/demo/demo-definition.js'
import { projectRoot as root, startDemo, terminalEnv } from './demo-driver.js'
import { firstCommandStep } from './demo-route-probe.js'
import { keys } from './keys.js'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

// The fixture app built once with esbuild and started with plain node (test/support/cli-bundle.ts):
// started through tsx, each start spent 1–2 s loading tsx and transforming the app's source graph.
const orderChatApp = await scriptBundle('test/ink/fixtures/order-chat-app.tsx')
const running: PtyTerminal[] = []
afterEach(() => {
  for (const terminal of running.splice(0)) terminal.kill()
})

function fixtureApp(): PtyTerminal {
  const terminal = startPty(process.execPath, [orderChatApp], {
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
    expect(screen).toContain('Alt+1 Escalate')
    terminal.write(keys.alt(1))
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

describe('`npm start` (chatrail demo, offline agent) in a real pseudo-terminal', () => {
  it('answers a command, shows the state change, replays on Ctrl+T, and quits cleanly', async () => {
    const step = firstCommandStep(demoDefinition(createOfflineAdapter(demoRoutes)))
    const terminal = startDemo(['--agent', 'offline'])
    running.push(terminal)
    let screen = await terminal.waitFor(`state ${step.fromState} · last turn none · agent offline: no agent connected`, 45_000)
    expect(screen).toContain('chatrail demo · support bot\nagent: offline adapter (chosen with --agent offline)')
    terminal.write(step.command)
    await terminal.waitFor(`› ${step.command}`)
    terminal.write(keys.enter)
    screen = await terminal.waitFor((text) => text.includes(`bot · deterministic · ${step.routeId}\n${step.reply}\n`))
    expect(screen).toContain(`state ${step.toState} · last turn deterministic (${step.routeId})`)

    terminal.write(keys.ctrlT)
    screen = await terminal.waitFor((text) => text.includes(`bot · deterministic · ${step.routeId} · replayed\n${step.reply}\n`))
    expect(screen).toContain(`last turn deterministic (${step.routeId}) replayed`)
    expect(screen).toContain(`state ${step.toState}`)

    terminal.write('what can you do?')
    await terminal.waitFor('› what can you do?')
    terminal.write(keys.enter)
    // the offline reply streams ~190 word chunks 12 ms apart, each laid out as markdown: give a loaded machine room
    screen = await terminal.waitFor((text) => text.includes('For real answers, sign in to Claude Code or Codex, or set up OpenCode, and restart the demo.\n'), 30_000)
    expect(screen).toContain('bot · agentic\nNo agent is connected (offline demo adapter)')
    expect(screen).toContain('last turn agentic')

    terminal.write(keys.ctrlC)
    expect(await terminal.exited).toEqual({ exitCode: 0, signal: 0 })
  }, 90_000)
})

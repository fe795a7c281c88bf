import { createOfflineAdapter } from '../../src/cli/demo/offline-adapter.js'
import { demoDefinition, demoRoutes } from '../../src/cli/demo/demo-definition.js'
import { startDemo } from './demo-driver.js'
import { firstCommandStep } from './demo-route-probe.js'
import { keys } from './keys.js'

/**
 * A short `npm start` session in a pseudo-terminal, read through a headless xterm: the first command
 * route, Ctrl+T (a replay), an order number, then a free question. Returns the screen as a person
 * sees it, prefixed with the command line. docs/demo-screen.txt (and the README) show its output.
 * `start` runs the demo (default `npm start`; the test passes the bundled CLI's `chatrail demo`).
 */
export async function captureDemoScreen(args: readonly string[], start: typeof startDemo = startDemo): Promise<string> {
  const step = firstCommandStep(demoDefinition(createOfflineAdapter(demoRoutes)))
  const terminal = start(args, { cols: 100, rows: 60 })
  try {
    await terminal.waitFor('last turn none', 60_000)
    terminal.write(step.command)
    await terminal.waitFor(`› ${step.command}`)
    terminal.write(keys.enter)
    await terminal.waitFor(`bot · deterministic · ${step.routeId}\n`)
    terminal.write(keys.ctrlT)
    await terminal.waitFor(`bot · deterministic · ${step.routeId} · replayed\n`)
    terminal.write('#12345')
    await terminal.waitFor('› #12345')
    terminal.write(keys.enter)
    await terminal.waitFor('Shall I reship it? (yes / no)\n')
    terminal.write('Can I get a refund instead?')
    await terminal.waitFor('› Can I get')
    terminal.write(keys.enter)
    // ~190 word chunks 12 ms apart, each laid out as markdown: room for a loaded machine
    await terminal.waitFor('For real answers, sign in to Claude Code or Codex, or set up OpenCode, and restart the demo.\n', 30_000)
    return `$ npm start\n${terminal.screen()}\n`
  } finally {
    terminal.write(keys.ctrlC)
    await terminal.exited
  }
}

/**
 * The part of a demo screen that does not depend on which agent CLIs this machine has: from the
 * "Try …" hint on (the lines above it report the agent probe).
 */
export function screenAfterAgentProbe(screen: string): string {
  const start = screen.indexOf('\nTry ')
  if (start < 0) throw new Error(`no "Try …" hint on the demo screen:\n${screen}`)
  return screen.slice(start + 1)
}

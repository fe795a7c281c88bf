// Captures the screen of a short `npm start` session into docs/demo-screen.txt (the README's
// quick start shows it): the real demo in a pseudo-terminal, read through a headless xterm.
// Run: npx tsx test/ink/capture-demo-screen.ts [--agent offline]
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createOfflineAdapter } from '../../src/cli/demo/offline-adapter.js'
import { demoDefinition, demoRoutes } from '../../src/cli/demo/demo-definition.js'
import { projectRoot, startDemo } from './demo-driver.js'
import { firstCommandStep } from './demo-route-probe.js'
import { keys } from './keys.js'

const step = firstCommandStep(demoDefinition(createOfflineAdapter(demoRoutes)))
const terminal = startDemo(process.argv.slice(2), { cols: 100, rows: 60 })
try {
  await terminal.waitFor('last turn none', 60_000)
  terminal.write(step.command)
  await terminal.waitFor(`› ${step.command}`)
  terminal.write(keys.enter)
  await terminal.waitFor(`bot · deterministic · ${step.routeId}\n`)
  terminal.write(keys.ctrlR)
  await terminal.waitFor(`bot · deterministic · ${step.routeId} · replayed\n`)
  terminal.write('#12345')
  await terminal.waitFor('› #12345')
  terminal.write(keys.enter)
  await terminal.waitFor('Shall I reship it? (yes / no)\n')
  terminal.write('Can I get a refund instead?')
  await terminal.waitFor('› Can I get')
  terminal.write(keys.enter)
  await terminal.waitFor('For real answers, sign in to Claude Code or Codex and restart the demo.\n')
  const screen = terminal.screen()
  const file = join(projectRoot, 'docs', 'demo-screen.txt')
  writeFileSync(file, `$ npm start\n${screen}\n`)
  process.stdout.write(`wrote ${file}\n`)
} finally {
  terminal.write(keys.ctrlC)
  await terminal.exited
}

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startPty } from './pty-terminal.js'
import type { PtyTerminal } from './pty-terminal.js'

/** Starts `npm start -- …` (the demo from source) in a pseudo-terminal, as a person would. */

export const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Ink renders only the final frame when it thinks it runs in CI (any CI variable, even empty). */
export function terminalEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1', ...extra }
  delete env.CI
  delete env.CONTINUOUS_INTEGRATION
  delete env.CHATRAIL_DEMO_AGENT
  return env
}

export function startDemo(args: readonly string[], options: { cols?: number; rows?: number } = {}): PtyTerminal {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  return startPty(npm, ['start', '--silent', '--', ...args], { cwd: projectRoot, env: terminalEnv(), ...options })
}

/**
 * `chatrail demo …` from the CLI built once with esbuild (`cli`, test/support/cli-bundle.ts), in a
 * pseudo-terminal: the same program and screen as `npm start`, without npm and tsx starting first
 * (2–3 s). ink-pty.test.ts keeps running `npm start` itself.
 */
export function startBundledDemo(cli: string, args: readonly string[], options: { cols?: number; rows?: number } = {}): PtyTerminal {
  return startPty(process.execPath, [cli, 'demo', ...args], { cwd: projectRoot, env: terminalEnv(), ...options })
}

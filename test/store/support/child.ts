import { spawn, type ChildProcess } from 'node:child_process'
import { scriptBundle } from '../../support/cli-bundle.js'

/**
 * Starts store-child.ts and resolves with its first stdout line (parsed) and the process. The
 * script is built once with esbuild and started with plain node (test/support/cli-bundle.ts): no
 * tsx loader to start and no transform in every child.
 */
export async function startChild(args: readonly string[]): Promise<{ child: ChildProcess; reply: Record<string, number> }> {
  const script = await scriptBundle('test/store/support/store-child.ts')
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString()
      const line = out.split('\n')[0]
      if (out.includes('\n') && line) resolve({ child, reply: JSON.parse(line) as Record<string, number> })
    })
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString()
    })
    child.on('exit', (code, signal) => {
      if (!out.includes('\n')) reject(new Error(`store child exited (${code ?? signal}) before replying: ${err}`))
    })
  })
}

export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.on('exit', () => resolve())
  })
}

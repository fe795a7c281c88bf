import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { cliBundle } from '../support/cli-bundle.js'

/**
 * `chatrail serve` as a real process: resolves once it prints its `listening on` line, with
 * everything it printed so far. `startServeProcess` runs the CLI built once with esbuild, with its
 * page prebuilt (test/support/cli-bundle.ts: up in a fraction of the second a tsx start and an
 * in-memory page build took); `startServeFromSource` runs the checkout's entry as `npm run serve`
 * does, the TypeScript source through tsx's loader, building the page on start.
 */

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

export interface ServeProcess {
  readonly child: ChildProcess
  readonly url: string
  stdout: () => string
  stderr: () => string
  /** Sends `signal` and resolves with the exit code (bounded: SIGKILL after `ms`). */
  stop: (signal?: NodeJS.Signals, ms?: number) => Promise<number | null>
}

export async function startServeProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<ServeProcess> {
  return startNodeServer([await cliBundle(), 'serve', ...args], { cwd: repoRoot, env, timeoutMs })
}

export function startServeFromSource(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<ServeProcess> {
  // `node --import tsx`, not the tsx binary: one process, so a signal reaches the server itself
  // (the tsx binary is a wrapper whose child would outlive a SIGKILL sent to it).
  return startNodeServer(['--import', 'tsx', 'src/cli/main.ts', 'serve', ...args], { cwd: repoRoot, env, timeoutMs })
}

/** `node <nodeArgs>` in `cwd`, resolved once it prints its `listening on` line. */
export function startNodeServer(nodeArgs: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ServeProcess> {
  const timeoutMs = options.timeoutMs ?? 60_000
  const child = spawn(process.execPath, [...nodeArgs], {
    cwd: options.cwd,
    env: { ...process.env, CHATRAIL_TOKEN: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString('utf8') })
  child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString('utf8') })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', ms = 20_000): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
    child.kill(signal)
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    try {
      return await exited
    } finally {
      clearTimeout(timer)
    }
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL')
      reject(new Error(`chatrail serve printed no listening line within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`))
    }, timeoutMs)
    const check = (): void => {
      const match = /^listening on (http:\/\/\S+)$/m.exec(out)
      if (match === null) return
      clearTimeout(timer)
      child.stdout?.off('data', check)
      resolve({ child, url: match[1] as string, stdout: () => out, stderr: () => err, stop })
    }
    child.stdout?.on('data', check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`chatrail serve exited with ${String(code)} before listening\nstdout: ${out}\nstderr: ${err}`))
    })
  })
}

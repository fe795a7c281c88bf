import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { startOpencodeServer } from '../../../src/agents/opencode/adapter/opencode-server.js'
import type { OpencodeServerProcess, StartServerOptions } from '../../../src/agents/opencode/adapter/opencode-server.js'
import { OpencodeServerError } from '../../../src/agents/opencode/opencode-errors.js'

/**
 * Starts `opencode serve` again on the port a killed server held, where its clients look for it.
 * On a loaded machine the first try can exit before it listens ("Unexpected error", seen once in a
 * fresh-clone CI run right after a SIGKILL of the old server's process group): the port or the
 * database the old server held is not let go yet. So this waits until the port can be bound, then
 * tries again, up to `attempts` times; a final failure carries every attempt's reason and the tail
 * of OpenCode's newest log, so the cause is in the test output rather than lost with the home dir.
 */
export async function restartOnPort(options: StartServerOptions & { port: number; dataDir: string }, attempts = 4): Promise<OpencodeServerProcess> {
  const reasons: string[] = []
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    await untilBindable(options.port, 20_000)
    try {
      return await startOpencodeServer(options)
    } catch (error) {
      if (!OpencodeServerError.isInstance(error) || error.code !== 'OPENCODE_EXITED') throw error
      reasons.push(`attempt ${attempt}: ${error.message}`)
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
    }
  }
  throw new Error(`opencode serve did not start again on port ${options.port}:\n${reasons.join('\n')}\n--- newest OpenCode log ---\n${newestLogTail(options.dataDir)}`)
}

function untilBindable(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const probe = (): void => {
      const server = createServer()
      server.once('error', () => {
        if (Date.now() > deadline) reject(new Error(`port ${port} still taken after ${timeoutMs} ms`))
        else setTimeout(probe, 100)
      })
      server.listen(port, '127.0.0.1', () => server.close(() => resolve()))
    }
    probe()
  })
}

function newestLogTail(dataDir: string): string {
  const logDir = join(dataDir, 'log')
  try {
    const newest = readdirSync(logDir)
      .map((name) => ({ name, mtime: statSync(join(logDir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime)[0]
    if (!newest) return '(no log files)'
    return readFileSync(join(logDir, newest.name), 'utf8').split('\n').slice(-40).join('\n')
  } catch (error) {
    return `(no log: ${(error as Error).message})`
  }
}

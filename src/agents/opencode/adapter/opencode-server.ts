import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { startAgentProcess } from '../../process/agent-process.js'
import type { AgentProcessExit } from '../../process/agent-process.js'
import type { OpencodeAuth } from '../http-client.js'
import { OpencodeServerError } from '../opencode-errors.js'

/**
 * Starts `opencode serve --hostname 127.0.0.1 --port <free port>` as a child in its own process group
 * (src/agents/process/agent-process.ts: argument array, no shell, the whole tree ended on `stop()`
 * and when this Node process exits). Resolves once the server prints
 * `opencode server listening on http://127.0.0.1:<port>`. `--port 0` is not "any port" to
 * OpenCode 1.18 (it means its default, 4096), so a free port is found first by binding port 0 here;
 * if another process takes it in between, the server exits and the start is tried again (3 times).
 *
 * Every server started here has a password of its own (issue 28): 32 random bytes
 * (`crypto.randomBytes`, base64url), given to the child only in its environment
 * (`OPENCODE_SERVER_PASSWORD`, user `opencode`), replacing any the caller's env carried, and never on
 * its command line (which every local user can read in /proc) or in any message. 127.0.0.1 is
 * shared by every user of the machine: without it, another user could read the project's files
 * through the server (`GET /file/content`) and run the agent in it. `auth()` hands the password to
 * chatrail's own client; the returned object holds it only in a closure, so printing the object
 * shows no password.
 */

export interface StartServerOptions {
  bin: string
  cwd: string
  env: NodeJS.ProcessEnv
  /** More `opencode` arguments before `serve` (trusted configuration, never user text). */
  extraArgs?: readonly string[]
  /** Default 30 s (a cold start on a busy two-core machine takes 2–5 s). */
  startTimeoutMs?: number
  /** SIGTERM → SIGKILL grace on stop (default 3 s). */
  graceMs?: number
  /** Listen on this port instead of a free one (a server started again where its clients look for it); not retried when taken. */
  port?: number
  /**
   * Start it again under a previous server's credentials (its `auth().password`), for a server
   * started again where its clients look for it (with `port`). Default: a fresh random password.
   */
  password?: string
}

export interface OpencodeServerProcess {
  readonly url: string
  readonly pid: number | undefined
  /** The server's Basic-auth credentials (its own random password): for chatrail's client, never to print. */
  auth: () => OpencodeAuth
  /** Resolves when the server process exited (by itself or stopped). */
  readonly exited: Promise<AgentProcessExit>
  /** Ends the server and every process it started. Idempotent; never throws. */
  stop: () => Promise<void>
}

const LISTENING = /listening on (https?:\/\/\S+)/
const SERVER_USERNAME = 'opencode'

/** A fresh password: 32 bytes from the OS's CSPRNG, 43 base64url characters. */
function freshPassword(): string {
  return randomBytes(32).toString('base64url')
}

export function startOpencodeServer(options: StartServerOptions): Promise<OpencodeServerProcess> {
  return startOpencodeServerOn(options, freePort)
}

/**
 * What `opencode serve` prints when it cannot bind its port. OpenCode 1.18 says only
 * `Error: Unexpected error` and `ServeError` (Bun.serve's failure, checked by hand against a port
 * another process held); older builds and other runtimes name the errno.
 */
const PORT_TAKEN = /EADDRINUSE|address already in use|port .* in use|\bServeError\b/i

/** Whether a start failed because the port was taken (then a start on a port of our own choosing is tried again). */
export function portTakenOnStart(error: unknown): boolean {
  return OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_EXITED' && PORT_TAKEN.test(error.message)
}

/** `startOpencodeServer` with the free-port pick passed in (tests hand it a port that is taken). */
export async function startOpencodeServerOn(options: StartServerOptions, pickPort: () => Promise<number>): Promise<OpencodeServerProcess> {
  // An empty password leaves `opencode serve` open to every local user; a short one can be guessed.
  if (options.password !== undefined && options.password.length < 32) {
    throw new OpencodeServerError({ code: 'OPENCODE_INVALID_INPUT', message: `password must be at least 32 characters (got ${options.password.length}).`, hint: "Omit it for a fresh random one, or pass a previous server's auth().password.", url: '' })
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options, options.port ?? (await pickPort()))
    } catch (error) {
      if (!portTakenOnStart(error) || attempt >= 3 || options.port !== undefined) throw error
    }
  }
}

/** A port nothing listens on right now (the kernel's pick for port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

async function startOnce(options: StartServerOptions, port: number): Promise<OpencodeServerProcess> {
  let announce: (url: string) => void = () => undefined
  const announced = new Promise<string>((resolve) => (announce = resolve))
  const password = options.password ?? freshPassword()
  const child = startAgentProcess({
    bin: options.bin,
    args: [...(options.extraArgs ?? []), 'serve', '--hostname', '127.0.0.1', '--port', String(port)],
    cwd: options.cwd,
    env: { ...options.env, OPENCODE_SERVER_PASSWORD: password, OPENCODE_SERVER_USERNAME: SERVER_USERNAME },
    onLine: (line) => {
      const match = LISTENING.exec(line)
      if (match?.[1]) announce(match[1].replace(/\/+$/, ''))
    },
  })
  const timeoutMs = options.startTimeoutMs ?? 30_000
  let timer: ReturnType<typeof setTimeout> | undefined
  const outcome = await Promise.race([
    announced.then((url) => ({ kind: 'ready' as const, url })),
    child.exited.then((exit) => ({ kind: 'exited' as const, exit })),
    new Promise<{ kind: 'timeout' }>((resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs))),
  ])
  clearTimeout(timer)
  const stop = async (): Promise<void> => {
    await child.terminate(options.graceMs)
  }
  if (outcome.kind === 'ready') return { url: outcome.url, pid: child.pid, auth: () => ({ username: SERVER_USERNAME, password }), exited: child.exited, stop }
  await stop()
  if (outcome.kind === 'timeout') {
    throw new OpencodeServerError({ code: 'OPENCODE_START_TIMEOUT', message: `\`${options.bin} serve\` did not start listening within ${timeoutMs} ms.`, hint: 'Raise startTimeoutMs, or start the server yourself and pass baseUrl.', url: '' })
  }
  const exit = outcome.exit
  if (exit.kind === 'spawn-failed') {
    const missing = exit.code === 'ENOENT'
    throw new OpencodeServerError({
      code: missing ? 'OPENCODE_NOT_FOUND' : 'OPENCODE_SPAWN_FAILED',
      message: missing ? `The OpenCode CLI \`${options.bin}\` was not found.` : `\`${options.bin}\` could not be started: ${exit.message}`,
      hint: missing ? 'Install it with `npm install -g opencode-ai` (or as a devDependency), or pass `bin`.' : 'Check that `bin` is an executable file.',
      url: '',
    })
  }
  throw new OpencodeServerError({
    code: 'OPENCODE_EXITED',
    message: `\`${options.bin} serve\` exited (${exit.signal ?? `code ${exit.code ?? '?'}`}) before it listened.${exit.stderr ? `\n${exit.stderr.trim()}` : ''}`,
    hint: 'Run `opencode serve` by hand with the same environment to see why.',
    url: '',
  })
}

import { createHash, randomBytes } from 'node:crypto'
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { createServer, connect, type Server } from 'node:net'
import { basename, join } from 'node:path'
import { ChatrailError } from '../contract/errors.js'
import { StoreUnavailableError } from './store-errors.js'

/**
 * One process per PGlite data directory, enforced by the OS. PGlite keeps its pages in the
 * process; two processes on one directory each write their own copy and the last to flush wins, so
 * acknowledged writes are lost. The lock is a listening local socket, not a PID file: the kernel
 * closes a socket when its process dies, SIGKILL included, so a crashed holder never leaves a lock
 * behind, and a live one answers a connection with who it is, so the refusal can name it.
 *
 * - Linux: an abstract Unix socket (`\0chatrail-pglite-<hash>`). It has no file to go stale; the
 *   kernel frees the name with the socket. Abstract names have no permissions, so the name is
 *   derived from a random key kept in the (0700) directory (`.chatrail-lock-key`, 0600) and the
 *   directory's device and inode: another local user cannot compute it to squat it, and a copy of
 *   the directory is another lock. Limit: abstract names are per network namespace (two containers
 *   with their own network sharing one volume do not see each other's lock).
 * - Windows: a named pipe of the same name, which the kernel also frees with its process.
 * - Elsewhere (macOS, BSD): a socket file in the directory (`.chatrail-lock`). A file outlives a
 *   crash, so a bind that finds it in use first connects: a refused connection means its process is
 *   gone (stale), and the file is removed and bound again.
 *
 * No npm package does this: `proper-lockfile` and `lockfile` are lock files judged stale by age
 * (a SIGKILLed holder blocks the directory until then, and a holder stalled longer than that loses
 * its lock while still writing); `fs-ext`, `os-lock` and `fs-native-extensions` give `flock` through
 * a native addon to build or download for every platform. `node:net` does both kinds natively.
 */

export type LockMode = 'abstract' | 'pipe' | 'file'

export interface DirectoryLock {
  /** The directory it locks, as given. */
  readonly dir: string
  /** Stops holding the lock (idempotent). */
  release: () => Promise<void>
}

export interface LockHolder {
  readonly pid: number
  readonly command?: string
}

/** The lock kind for this platform; tests pass `file` to run the portable path on Linux. */
export function defaultLockMode(platform: NodeJS.Platform = process.platform): LockMode {
  if (platform === 'linux') return 'abstract'
  if (platform === 'win32') return 'pipe'
  return 'file'
}

const KEY_FILE = '.chatrail-lock-key'
const SOCKET_FILE = '.chatrail-lock'
/** How long asking the holder who it is may take before the refusal says "another process". */
const ASK_MS = 2000

/**
 * Takes `dir`'s lock, or throws `StoreUnavailableError` naming the directory and the process
 * holding it. The lock's socket is unref'd: holding it never keeps the process alive.
 */
export async function lockDirectory(dir: string, mode: LockMode = defaultLockMode()): Promise<DirectoryLock> {
  let address: string
  try {
    address = addressOf(dir, mode)
  } catch (error) {
    throw ChatrailError.isInstance(error) ? error : lockFailed(dir, error)
  }
  // A few rounds: a holder that is closing refuses connections before its name is free.
  for (let attempt = 0; ; attempt++) {
    const server = createServer((socket) => {
      socket.on('error', () => undefined)
      socket.end(JSON.stringify(holderSelf()))
    })
    const bound = await listen(server, address)
    if (bound === true) {
      server.unref()
      return heldLock(dir, server, mode === 'file' ? address : undefined)
    }
    if (bound.code !== 'EADDRINUSE') throw lockFailed(dir, bound)
    const holder = await askHolder(address)
    if (holder !== 'gone') throw new StoreUnavailableError('open', new Error(`the PGlite directory ${dir} is in use by ${describeHolder(holder)}`), {
      hint: 'One process owns a PGlite directory at a time. Stop that process, give this one its own directory (pgliteStore({ dataDir }), chatrail serve --store pglite:<dir>), or use postgresStore for several processes.',
      directory: dir,
      ...(holder === undefined ? {} : { holder }),
    })
    // the holder is gone: its file (file mode) stayed behind; abstract and pipe names free themselves
    if (mode === 'file') removeIfSocket(address)
    if (attempt >= 4) throw lockFailed(dir, new Error('the lock was taken and released repeatedly while opening'))
  }
}

function addressOf(dir: string, mode: LockMode): string {
  if (mode === 'file') return join(dir, SOCKET_FILE)
  const { dev, ino } = statSync(dir)
  const name = `chatrail-pglite-${createHash('sha256').update(`${lockKey(dir)}\0${dev}:${ino}`).digest('hex').slice(0, 40)}`
  return mode === 'pipe' ? `\\\\.\\pipe\\${name}` : `\0${name}`
}

/** The directory's random lock key, created once (written aside, then linked: a reader never sees half a key). */
function lockKey(dir: string): string {
  const path = join(dir, KEY_FILE)
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw lockFailed(dir, error)
  }
  const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`
  try {
    writeFileSync(aside, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    try {
      linkSync(aside, path)
    } catch (error) {
      // another opener linked its key first: theirs is the key
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    return readFileSync(path, 'utf8')
  } catch (error) {
    throw lockFailed(dir, error)
  } finally {
    try {
      unlinkSync(aside)
    } catch {
      // never written
    }
  }
}

function listen(server: Server, address: string): Promise<true | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException): void => resolve(error)
    server.once('error', failed)
    server.listen(address, () => {
      server.off('error', failed)
      server.on('error', () => undefined)
      resolve(true)
    })
  })
}

/** Who holds the address: its answer, `undefined` when it does not say, `'gone'` when nothing listens there. */
function askHolder(address: string): Promise<LockHolder | undefined | 'gone'> {
  return new Promise((resolve) => {
    let text = ''
    const socket = connect(address)
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(undefined)
    }, ASK_MS)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      if (text.length < 4096) text += chunk
    })
    socket.on('end', () => {
      clearTimeout(timer)
      resolve(parseHolder(text))
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'gone' : undefined)
    })
  })
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as { pid?: unknown; command?: unknown }
    if (!Number.isSafeInteger(value.pid)) return undefined
    return { pid: value.pid as number, ...(typeof value.command === 'string' ? { command: value.command.slice(0, 200) } : {}) }
  } catch {
    return undefined
  }
}

function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return 'another process (it did not say which)'
  return `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}${holder.pid === process.pid ? ', this very process: another store on it is still open' : ''}`
}

/**
 * What the holder tells a second opener: its pid and the start of its command line (the program
 * and the script, e.g. `node /app/src/cli/main.ts serve`), never the arguments after them, which
 * may carry a secret.
 */
function holderSelf(): LockHolder {
  const command = [basename(process.argv0 || process.execPath), ...process.argv.slice(1, 3)].join(' ')
  return { pid: process.pid, command }
}

function heldLock(dir: string, server: Server, file: string | undefined): DirectoryLock {
  const ino = file === undefined ? undefined : statSync(file).ino
  let released: Promise<void> | undefined
  return {
    dir,
    release: () =>
      (released ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
      }).then(() => {
        // the socket file is ours only while it is the inode we bound
        if (file !== undefined && ino !== undefined) removeIfSocket(file, ino)
      })),
  }
}

function removeIfSocket(path: string, ino?: number): void {
  try {
    const stats = statSync(path)
    if (stats.isSocket() && (ino === undefined || stats.ino === ino)) unlinkSync(path)
  } catch {
    // already gone
  }
}

function lockFailed(dir: string, cause: unknown): StoreUnavailableError {
  return new StoreUnavailableError('open', cause, {
    hint: `Could not lock the PGlite directory ${dir}: check that it is a directory this user can write, or choose another dataDir.`,
    directory: dir,
  })
}

import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { ChatrailError } from '../../contract/errors.js'

/**
 * Directories only the current user can change, and files written into them without following
 * anything another user planted. The live-signal files hold settings the CLI executes as hooks and
 * the text of open dialogs, so the directory they live in must be private: created 0700 when
 * absent, refused when it is a symlink, owned by someone else, or group/world-writable, and every
 * parent must be one that only root or the user can rename entries in (sticky shared dirs such as
 * `/tmp` are fine). Where there are no POSIX uids (Windows) only the symlink/type checks apply.
 */

/** The sticky bit (S_ISVTX): in a sticky dir only an entry's owner may rename or remove it. */
const STICKY = 0o1000

const currentUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined)

/**
 * The default runtime directory: `$XDG_RUNTIME_DIR/chatrail` when that directory is the user's own
 * private one, else `<os temp dir>/chatrail-<uid>`. Not created here (`ensurePrivateDir` does).
 */
export function defaultRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR
  if (xdg !== undefined && xdg.startsWith('/') && isPrivateDir(xdg)) return join(xdg, 'chatrail')
  const uid = currentUid()
  return join(tmpdir(), uid === undefined ? 'chatrail' : `chatrail-${uid}`)
}

function isPrivateDir(path: string): boolean {
  try {
    return unsafeReason(lstatSync(path)) === undefined
  } catch {
    return false
  }
}

/**
 * Creates `path` (and missing parents) with mode 0700, then checks it and its parents. Throws
 * `ChatrailError` `UNSAFE_RUNTIME_DIR` naming the path, what is wrong and the fix.
 */
export function ensurePrivateDir(path: string): void {
  const absolute = resolve(path)
  try {
    mkdirSync(absolute, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw unsafe(absolute, `cannot be created (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'Pass a runtime directory under a folder you own.')
  }
  let info: Stats
  try {
    info = lstatSync(absolute)
  } catch (error) {
    throw unsafe(absolute, `cannot be checked (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'Pass a runtime directory under a folder you own.')
  }
  const reason = unsafeReason(info)
  if (reason !== undefined) throw unsafe(absolute, reason, fixFor(absolute))
  checkParents(absolute)
}

/** Why a directory is not private to the current user, or `undefined` when it is. */
function unsafeReason(info: Stats): string | undefined {
  if (info.isSymbolicLink()) return 'is a symbolic link'
  if (!info.isDirectory()) return 'is not a directory'
  const uid = currentUid()
  if (uid === undefined) return undefined
  if (info.uid !== uid) return `is owned by uid ${info.uid}, not by you (uid ${uid})`
  if ((info.mode & 0o022) !== 0) return `is writable by ${(info.mode & 0o002) !== 0 ? 'every user' : 'its group'} (mode ${(info.mode & 0o777).toString(8).padStart(3, '0')})`
  return undefined
}

/** Another user must not be able to rename the directory away and put their own in its place. */
function checkParents(absolute: string): void {
  const uid = currentUid()
  if (uid === undefined) return
  let parent = realpathSync(dirname(absolute))
  for (;;) {
    const info = statSync(parent)
    const othersMayRename = (info.mode & 0o022) !== 0 && (info.mode & STICKY) === 0
    if ((info.uid !== uid && info.uid !== 0) || othersMayRename) {
      throw unsafe(absolute, `is inside ${parent}, which ${othersMayRename ? 'other users can rename entries in (writable, not sticky)' : `is owned by uid ${info.uid}`}`, 'Use a runtime directory under a folder you own (your home directory, or your private $XDG_RUNTIME_DIR).')
    }
    const up = dirname(parent)
    if (up === parent) return
    parent = up
  }
}

function fixFor(path: string): string {
  return `Remove ${path} if it is not yours and let chatrail create it (mode 0700), or pass a runtimeDir that you own with mode 0700.`
}

function unsafe(path: string, reason: string, hint: string): ChatrailError {
  return new ChatrailError({ code: 'UNSAFE_RUNTIME_DIR', message: `The runtime directory ${path} ${reason}; live-signal files there could be read or replaced by another user.`, hint })
}

/**
 * Writes `text` to `path` (inside a private directory) with mode 0600: into a fresh temp file
 * created exclusively (`O_EXCL|O_NOFOLLOW`, so nothing planted is followed or reused), then renamed
 * over `path` (a rename replaces a planted symlink instead of following it).
 */
export function writePrivateFile(path: string, text: string): void {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
}

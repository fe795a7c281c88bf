import { execFileSync, spawnSync } from 'node:child_process'
import type { SpawnSyncReturns } from 'node:child_process'

/**
 * A second, unprivileged local user for the tests that play another user on the machine (a
 * planted runtime dir, a folder the user cannot read). Tests run as root in CI: root creates the
 * user `chatrail-other` with `useradd` once (idempotent, safe when two test files race) and runs
 * commands as it through `spawnSync`'s `uid`/`gid`. Not root: there is no way to become another
 * user without a password, so `otherUser()` returns the reason to skip.
 */

export interface OtherUser {
  name: string
  uid: number
  gid: number
}

const NAME = 'chatrail-other'

export type OtherUserResult = { ok: true; user: OtherUser } | { ok: false; reason: string }

let cached: OtherUserResult | undefined

export function otherUser(): OtherUserResult {
  cached ??= findOrCreate()
  return cached
}

function findOrCreate(): OtherUserResult {
  if (process.platform !== 'linux') return { ok: false, reason: 'needs Linux user accounts (useradd) to play a second local user' }
  if (process.getuid?.() !== 0) return { ok: false, reason: 'needs root to create and act as a second local user (the tests run as root in CI)' }
  const existing = lookup()
  if (existing) return { ok: true, user: existing }
  try {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'pipe' })
  } catch {
    // Another test file created it first (exit 9): the lookup below decides.
  }
  const created = lookup()
  return created ? { ok: true, user: created } : { ok: false, reason: `useradd could not create the user ${NAME}` }
}

function lookup(): OtherUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    const gid = Number(execFileSync('id', ['-g', NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    return Number.isInteger(uid) && Number.isInteger(gid) && uid !== 0 ? { name: NAME, uid, gid } : undefined
  } catch {
    return undefined
  }
}

/** Runs `file args` as the other user (no shell), with a minimal environment plus `env`. */
export function runAs(user: OtherUser, file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): SpawnSyncReturns<string> {
  return spawnSync(file, [...args], {
    uid: user.uid,
    gid: user.gid,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    timeout: 60_000,
    ...(cwd !== undefined ? { cwd } : {}),
  })
}

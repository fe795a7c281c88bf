import { readdir } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readRegularFile } from '../runstate/regular-file.js'
import { asObject, num, str } from './record-fields.js'

/**
 * Claude Code's own live-process registry, `~/.claude/sessions/<pid>.json` (interactive CLIs
 * only; `-p` runs write none). Observed on 2.1.197:
 * `{pid, sessionId, cwd, startedAt, procStart, version, kind, entrypoint, name, status:
 * "busy"|"idle"|"waiting", waitingFor?: "permission prompt", updatedAt, statusUpdatedAt}`.
 * The file is removed on a graceful exit; after SIGKILL it stays, so liveness is checked by pid.
 * `sessionId` switches at once on `/clear`.
 */

export interface ClaudeRegistryEntry {
  pid: number
  sessionId: string
  cwd: string
  startedAt?: number
  /** Process start time in clock ticks since boot (Linux `/proc/<pid>/stat` field 22). */
  procStart?: string
  status?: string
  waitingFor?: string
  updatedAt?: number
  statusUpdatedAt?: number
  version?: string
  kind?: string
  entrypoint?: string
  name?: string
}

/** Parses one registry file's text; `undefined` when it is not a registry entry. */
export function parseRegistryEntry(text: string): ClaudeRegistryEntry | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const o = asObject(value)
  const pid = num(o?.pid)
  const sessionId = str(o?.sessionId)
  const cwd = str(o?.cwd)
  if (o === undefined || pid === undefined || sessionId === undefined || cwd === undefined) return undefined
  const entry: ClaudeRegistryEntry = { pid, sessionId, cwd }
  const optionalNumbers = ['startedAt', 'updatedAt', 'statusUpdatedAt'] as const
  for (const field of optionalNumbers) {
    const value = num(o[field])
    if (value !== undefined) entry[field] = value
  }
  const optionalStrings = ['procStart', 'status', 'waitingFor', 'version', 'kind', 'entrypoint', 'name'] as const
  for (const field of optionalStrings) {
    const value = str(o[field])
    if (value !== undefined) entry[field] = value
  }
  return entry
}

/** Reads a registry file; a missing or unreadable entry is `undefined` (the CLI removes it on exit). */
export async function readRegistryFile(path: string): Promise<ClaudeRegistryEntry | undefined> {
  try {
    // A registry entry is a few hundred bytes; a FIFO or device there is refused, never waited on.
    return parseRegistryEntry((await readRegularFile(path, { maxBytes: 1024 * 1024 })).text)
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}

/**
 * True when the process is running and, where Linux exposes it, is the same process that wrote
 * the entry (a reused pid has another start time).
 */
export function isRegistryProcessAlive(entry: Pick<ClaudeRegistryEntry, 'pid' | 'procStart'>): boolean {
  try {
    process.kill(entry.pid, 0)
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPERM') return false
  }
  if (entry.procStart === undefined) return true
  try {
    const stat = readFileSync(`/proc/${entry.pid}/stat`, 'utf8')
    // Fields after the parenthesised command name; starttime is field 22 overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const start = fields[19]
    return start === undefined || start === entry.procStart
  } catch {
    return true
  }
}

export interface RegistryLookup {
  home: string
  cwd: string
  /** Liveness check (default `isRegistryProcessAlive`); tests inject their own. */
  isAlive?: (entry: ClaudeRegistryEntry) => boolean
}

export interface FoundRegistryEntry {
  entry: ClaudeRegistryEntry
  path: string
}

/**
 * The entry for `cwd`: skips malformed files and entries with a dead pid, another cwd or no
 * sessionId, then takes the newest `startedAt`. An empty `home` is a miss, never a fallback to
 * the user's own `~/.claude`.
 */
export async function findRegistryEntry(lookup: RegistryLookup): Promise<FoundRegistryEntry | undefined> {
  if (lookup.home === '') return undefined
  const dir = join(lookup.home, '.claude', 'sessions')
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
  const cwd = resolve(lookup.cwd)
  const alive = lookup.isAlive ?? isRegistryProcessAlive
  let best: FoundRegistryEntry | undefined
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue
    const path = join(dir, name)
    const entry = await readRegistryFile(path).catch(() => undefined)
    if (entry === undefined || entry.sessionId === '' || resolve(entry.cwd) !== cwd || !alive(entry)) continue
    if (best === undefined || (entry.startedAt ?? 0) > (best.entry.startedAt ?? 0)) best = { entry, path }
  }
  return best
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

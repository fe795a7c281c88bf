import { existsSync, readdirSync, readFileSync } from 'node:fs'

/**
 * Ends a child and everything it started. The child runs in its own process group (spawned
 * `detached`), so one `kill(-pgid)` reaches the shells and tools it ran; descendants that moved to
 * a group of their own (`setsid`) are found through `/proc` on Linux and signalled one by one.
 * Signalling a process that is already gone is not an error. Where there is no `/proc` (macOS),
 * only the group is reached.
 */

export interface ProcStat {
  pid: number
  parent: number
  group: number
  /** Session id: `setsid` leaves the CLI's session, nothing else does. */
  session: number
  /** `R`, `S`, `D`, `Z` (zombie: exited, not reaped yet), … */
  state: string
  /** Start time in clock ticks since boot: with the pid, identifies a process across pid reuse. */
  start: string
}

export function readStat(pid: string): ProcStat | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces or ')': parse after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const parent = Number(fields[1])
    const group = Number(fields[2])
    const session = Number(fields[3])
    if (!Number.isInteger(parent) || !Number.isInteger(group) || !Number.isInteger(session)) return undefined
    return { pid: Number(pid), parent, group, session, state: fields[0] ?? '?', start: fields[19] ?? '' }
  } catch {
    return undefined
  }
}

/** Every process in `/proc`; `undefined` where there is no `/proc`. */
export function readAllStats(): ProcStat[] | undefined {
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return undefined
  }
  const stats: ProcStat[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(entry)
    if (stat) stats.push(stat)
  }
  return stats
}

/** Every running descendant of `pid` (breadth first), from `/proc`; `[]` where there is no `/proc`. */
export function listDescendantPids(pid: number): number[] {
  return listDescendants(pid).map((process) => process.pid)
}

/** A process seen once, identified by pid and start time (a reused pid has another start time). */
export interface SeenProcess {
  pid: number
  start: string
}

/** Like `listDescendantPids` (for one or several roots, in one pass over `/proc`), with start times. */
export function listDescendants(roots: number | readonly number[]): SeenProcess[] {
  const stats = readAllStats() ?? []
  const children = new Map<number, number[]>()
  for (const stat of stats) {
    if (stat.state === 'Z') continue
    const list = children.get(stat.parent) ?? []
    list.push(stat.pid)
    children.set(stat.parent, list)
  }
  const byPid = new Map(stats.map((stat) => [stat.pid, stat]))
  const found: SeenProcess[] = []
  const visited = new Set<number>()
  const queue = typeof roots === 'number' ? [roots] : [...roots]
  while (queue.length > 0) {
    const next = queue.shift() as number
    for (const child of children.get(next) ?? []) {
      if (visited.has(child)) continue
      visited.add(child)
      found.push({ pid: child, start: byPid.get(child)?.start ?? '' })
      queue.push(child)
    }
  }
  return found
}

/** True while the very process that was seen (same pid, same start time) still runs. */
export function isSameProcessAlive(seen: SeenProcess): boolean {
  const stat = readStat(String(seen.pid))
  if (stat === undefined) return !existsProc() && isProcessAlive(seen.pid)
  return stat.state !== 'Z' && stat.start === seen.start
}

/**
 * True while the process runs. A zombie (exited, waiting to be reaped by a parent that may never
 * do it, e.g. a container's init) counts as gone when `/proc` can tell.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  const stat = readStat(String(pid))
  return stat === undefined ? !existsProc() : stat.state !== 'Z'
}

/** True while any running process is in the group `groupId`. */
export function isGroupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  const stats = readAllStats()
  if (!stats) return true
  return stats.some((stat) => stat.group === groupId && stat.state !== 'Z')
}

function existsProc(): boolean {
  return existsSync('/proc/self/stat')
}

/**
 * Sends `signal` to the process group led by `pid` and to each of `extraPids` (descendants collected
 * earlier, before their parents died and they were re-parented). Never throws.
 */
export function signalProcessTree(pid: number, signal: NodeJS.Signals, extraPids: readonly number[] = []): void {
  trySignal(-pid, signal)
  trySignal(pid, signal)
  for (const extra of extraPids) trySignal(extra, signal)
}

/** Sends `signal` to each pid (never to a group). Never throws. */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) trySignal(pid, signal)
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    // ESRCH: already gone. EPERM: not ours (a reused pid): leave it alone.
  }
}

import { readFileSync } from 'node:fs'
import { readAllStats, readStat } from './kill-process-tree.js'
import type { ProcStat, SeenProcess } from './kill-process-tree.js'

/**
 * Which processes belong to one agent turn, found from `/proc` (Linux) by marks a process cannot
 * lose by accident:
 * - the turn's environment marker (`CHATRAIL_TURN_TREE=<random id>`, put in the CLI's environment
 *   and inherited by everything it starts, `setsid` and double-fork orphans included);
 * - the CLI's session (the CLI is spawned as a session leader; only `setsid` leaves it);
 * - the CLI's process group;
 * - ancestry: a child of any process found, and any process found by an earlier scan (passed back
 *   in as `known`, so an orphan seen before its parent died stays found).
 * Only processes started no earlier than the CLI count, so a reused pid or session id of an older
 * process never matches. A process that both clears its environment and `setsid`s after its parent
 * died before any scan saw it is out of reach without a cgroup; docs/security.md says so.
 * Where there is no `/proc` (macOS) the scan finds nothing and only the process group is signalled.
 */

export const TURN_MARKER_VARIABLE = 'CHATRAIL_TURN_TREE'

export interface TurnTree {
  /** The CLI: session and group leader of the turn. */
  leader: number
  /** The leader's start time (clock ticks since boot), read right after spawning. */
  leaderStart: number | undefined
  /** `CHATRAIL_TURN_TREE=<id>` exactly as it appears in the environment. */
  marker: string
}

export function turnTree(leader: number, markerId: string): TurnTree {
  const start = readStat(String(leader))?.start
  return { leader, leaderStart: start === undefined ? undefined : Number(start), marker: `${TURN_MARKER_VARIABLE}=${markerId}` }
}

/**
 * Every running (not zombie) process of the turn except this Node process, in one pass over `/proc`.
 * `known` are processes found by earlier scans (sampled descendants included): each that still runs
 * stays a member, with its children.
 */
export function scanTurnTree(tree: TurnTree, known: Iterable<SeenProcess> = []): SeenProcess[] {
  const stats = readAllStats()
  if (stats === undefined) return []
  const knownIds = new Set<string>()
  for (const seen of known) knownIds.add(`${seen.pid}:${seen.start}`)
  const candidates = stats.filter((stat) => stat.state !== 'Z' && stat.pid !== process.pid && startedDuringTurn(tree, stat))
  // The kernel keeps a pid number in use while a session or group still names it, so the leader's
  // id can only be reused once the turn's session and group are empty; a process holding that pid
  // with another start time means exactly that, and its session is someone else's.
  const leaderIdsOurs = !leaderIdReused(tree, stats)
  const members = new Set<number>()
  for (const stat of candidates) {
    const inLeaderIds = leaderIdsOurs && (stat.pid === tree.leader || stat.session === tree.leader || stat.group === tree.leader)
    if (inLeaderIds || knownIds.has(`${stat.pid}:${stat.start}`) || carriesMarker(stat.pid, tree.marker)) {
      members.add(stat.pid)
    }
  }
  // Ancestry to a fixed point: a child of a member is a member (candidates are few; this stays cheap).
  // Only live members count as parents: a dead process's children were re-parented at once, so a
  // live process naming a dead member's pid as parent is the child of a reused pid, not ours.
  const parents = new Set<number>(members)
  for (let grew = true; grew; ) {
    grew = false
    for (const stat of candidates) {
      if (members.has(stat.pid) || !parents.has(stat.parent)) continue
      members.add(stat.pid)
      parents.add(stat.pid)
      grew = true
    }
  }
  return candidates.filter((stat) => members.has(stat.pid)).map((stat) => ({ pid: stat.pid, start: stat.start }))
}

/**
 * True once the leader's pid belongs to another process (same pid, another start time): its
 * session and group ids are then someone else's and must not be matched or signalled.
 */
export function leaderIdReused(tree: TurnTree, stats: readonly ProcStat[] | undefined = readAllStats()): boolean {
  if (stats === undefined || tree.leaderStart === undefined) return false
  const now = stats.find((stat) => stat.pid === tree.leader)
  return now !== undefined && Number(now.start) !== tree.leaderStart
}

function startedDuringTurn(tree: TurnTree, stat: ProcStat): boolean {
  if (tree.leaderStart === undefined) return true
  const start = Number(stat.start)
  return Number.isFinite(start) && start >= tree.leaderStart
}

/** True when the process was started with the marker in its environment (unreadable: not ours). */
function carriesMarker(pid: number, marker: string): boolean {
  let environ: string
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1')
  } catch {
    return false
  }
  return environ.startsWith(`${marker}\0`) || environ.includes(`\0${marker}\0`)
}

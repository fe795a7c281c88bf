import { attentionOf } from './monitor-entry.js'
import type { MonitorEntry } from './monitor-entry.js'

/**
 * When a session change is worth telling a person about (seed 002, "Desktop notification logic"):
 * sessions whose activity predates the watch are baselined silently, active and idle states never
 * notify, a needs-you or finished state notifies once it has held for `settleMs`, and each session
 * notifies at most once per activity and once per status episode. Pure.
 */

/** Why a notification fires: the session needs you, or its turn ended (by how), or it went quiet without an end marker. */
export type NotificationReason = 'needs_you' | 'completed' | 'failed' | 'stopped' | 'quiet'

/** Per-session bookkeeping the gate reads and returns updated; the monitor keeps one per session. */
export interface NotificationTrack {
  /** Increments whenever the entry's state or status changes. */
  episode: number
  /** Monitor-clock time the current episode began. */
  episodeSince: number
  notifiedEpisode?: number
  notifiedActivityAt?: number
}

export interface GateInput {
  entry: MonitorEntry
  track: NotificationTrack
  now: number
  /** Monitor-clock time of the first tick. */
  watchStartedAt: number
  settleMs: number
}

export interface GateResult {
  notify?: NotificationReason
  track: NotificationTrack
}

/** Activity this much older than the watch start counts as before it (a file written as the watch began is not). */
export const BASELINE_SLACK_MS = 1000

/** Pure. `undefined` for states that never notify: running, streaming, idle, ended by silence. */
export function notificationReason(entry: Pick<MonitorEntry, 'state' | 'status' | 'endedBy'>): NotificationReason | undefined {
  switch (attentionOf(entry)) {
    case 'needs_you':
      return 'needs_you'
    case 'finished':
      if (entry.status === 'completed' || entry.status === 'failed' || entry.status === 'stopped') return entry.status
      return 'quiet'
    case 'active':
    case 'quiet':
      return undefined
  }
}

/**
 * Pure. In order: a state that never notifies → nothing; activity from before the watch → marked
 * as told, silently; already told for this episode or this activity → nothing; held for less than
 * `settleMs` → nothing yet (a later tick decides); else notify and mark.
 */
export function gateNotification(input: GateInput): GateResult {
  const { entry, track } = input
  const reason = notificationReason(entry)
  if (reason === undefined) return { track }
  const told = { ...track, notifiedEpisode: track.episode, notifiedActivityAt: entry.lastActivityAt }
  if (entry.lastActivityAt < input.watchStartedAt - BASELINE_SLACK_MS) return { track: told }
  if (track.notifiedEpisode === track.episode || track.notifiedActivityAt === entry.lastActivityAt) return { track }
  if (input.now - track.episodeSince < input.settleMs) return { track }
  return { notify: reason, track: told }
}

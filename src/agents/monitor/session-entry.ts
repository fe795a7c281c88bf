import type { MonitorEntry } from './monitor-entry.js'
import { activityOf } from './session-activity.js'
import type { FoundSession, SessionObservation } from './session-source.js'
import type { SessionState } from './session-state.js'

/**
 * From one session's observation to its entry: when its last activity was, and the entry itself.
 * Pure.
 */

export interface ActivityInput {
  /** The previous observation's activity mark; `undefined` the first time the session is seen. */
  previousMark?: string
  mark: string
  previousAt: number
  /** The newest state-bearing line's time, by the writer's clock. */
  transcriptAt?: number
  /** When there is no transcript time: the file's mtime, or the process's start. */
  fallbackAt: number
  /** The clock at the previous tick (the last time the file was looked at). */
  previousTickAt: number
  now: number
}

/**
 * Pure. First sight: the transcript's own time (else the fallback), never in the future. An
 * unchanged mark: unchanged. New activity while watching: the transcript's time when it falls
 * after the previous tick (the line was written since we last looked), else now. A writer clock
 * far behind ours, a resumed session that copied old lines, or a lifecycle event with no time of
 * its own therefore never makes a session that just wrote look quiet. Never moves backwards.
 */
export function nextActivityAt(input: ActivityInput): number {
  if (input.previousMark === undefined) return Math.min(input.transcriptAt ?? input.fallbackAt, input.now)
  if (input.mark === input.previousMark) return input.previousAt
  const written = input.transcriptAt !== undefined && input.transcriptAt > input.previousTickAt ? Math.min(input.transcriptAt, input.now) : input.now
  return Math.max(written, input.previousAt)
}

/** Pure. The entry, with optional fields present only when known (stable key order, for diffs). */
export function buildEntry(found: FoundSession, observation: SessionObservation, state: SessionState, lastActivityAt: number, error: string | undefined): MonitorEntry {
  const activity = activityOf(observation.lastMessage)
  const cwd = observation.cwd ?? found.cwd
  return {
    key: found.key,
    agent: found.agent,
    sessionId: found.sessionId,
    path: found.path,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(observation.title !== undefined && observation.title !== '' ? { title: observation.title } : {}),
    state: state.state,
    status: state.status,
    ...(state.detail !== undefined ? { detail: state.detail } : {}),
    ...(observation.pendingDialog !== undefined && state.state !== 'ended' ? { pendingDialog: observation.pendingDialog } : {}),
    lastActivityAt,
    ...(activity !== undefined ? { activity } : {}),
    ...(state.endedBy !== undefined ? { endedBy: state.endedBy } : {}),
    ...(found.process === 'alive' && found.pid !== undefined ? { pid: found.pid } : {}),
    ...(error !== undefined ? { error } : {}),
  }
}

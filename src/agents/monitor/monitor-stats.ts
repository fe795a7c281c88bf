/**
 * What a monitor has read, for tests and benches: the proof that a tick reads only what changed.
 */
export interface MonitorStats {
  ticks: number
  /** `transcriptBytes + registryBytes`. */
  bytesRead: number
  /**
   * Transcript and rollout bytes handed to the readers: per read, what the file grew by since the
   * previous read (all of it after a truncation or a replacement). An upper bound of what the
   * readers fold; the shared tail's fixed reset probe (≤ 257 bytes per read) is not counted.
   */
  transcriptBytes: number
  /** Claude registry files (`~/.claude/sessions/<pid>.json`) read again because they changed. */
  registryBytes: number
  /** Transcript or rollout reads: one per changed file per tick. */
  fileReads: number
  /** Codex `session_meta` probes (`readRolloutOrigin`): one per rollout, when it is first seen. */
  originReads: number
  /** Descriptors held through the gate right now (0 between ticks). */
  openFiles: number
  peakOpenFiles: number
  /** `events`: file-system watchers wake the monitor; `polling`: only the timer; `stopped`: not started. */
  watching: 'events' | 'polling' | 'stopped'
}

/** The mutable counters sources and the monitor add to. */
export interface MonitorCounters {
  ticks: number
  transcriptBytes: number
  registryBytes: number
  fileReads: number
  originReads: number
}

export function createCounters(): MonitorCounters {
  return { ticks: 0, transcriptBytes: 0, registryBytes: 0, fileReads: 0, originReads: 0 }
}

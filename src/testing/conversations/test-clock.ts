/**
 * Deterministic ids and time for conversation runs, so two runs of one script produce the same
 * message ids, turn ids and timestamps, and snapshots are stable even before scrubbing.
 */

/** `prefix-1`, `prefix-2`, … */
export function sequentialIds(prefix: string): () => string {
  let next = 0
  return () => {
    next += 1
    return `${prefix}-${next}`
  }
}

/** A clock starting at `start` that advances `stepMs` on every reading (so durations are non-zero). */
export function steppingClock(start = Date.UTC(2026, 0, 1), stepMs = 1): () => Date {
  let now = start
  return () => {
    const reading = new Date(now)
    now += stepMs
    return reading
  }
}

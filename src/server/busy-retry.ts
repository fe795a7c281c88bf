/**
 * `Retry-After` for `409 conversation_busy`: when the running turn is likely to be over. The lease
 * says only when the turn would lose the conversation if it stopped renewing (up to `leaseMs`
 * ahead, 30 s by default), which for a turn that ends in 1.5 s is twenty-odd seconds of a client
 * waiting for nothing. So the handler keeps how long its recent turns took and answers their
 * median, in whole seconds (at least 1; 1 before any turn ended), never more than the lease has left
 * (a turn whose instance died holds the conversation until then, and no longer). The running turn
 * may be on another instance, whose turns this one's stand in for.
 */
export interface BusyRetry {
  /** A turn took `ms` from its claim to its stored end. */
  record: (ms: number) => void
  /** Seconds to wait, given how long the running turn's lease has left. */
  seconds: (leaseLeftMs: number) => number
}

/** Recent turn durations kept (a ring): enough for a stable median, small enough to follow a change of workload. */
const KEPT = 64

export function createBusyRetry(): BusyRetry {
  const durations: number[] = []
  let next = 0
  return {
    record(ms) {
      if (!Number.isFinite(ms) || ms < 0) return
      if (durations.length < KEPT) durations.push(ms)
      else durations[next] = ms
      next = (next + 1) % KEPT
    },
    seconds(leaseLeftMs) {
      const lease = Math.max(1, Math.ceil(leaseLeftMs / 1000))
      if (durations.length === 0) return 1
      const sorted = [...durations].sort((a, b) => a - b)
      const median = sorted[Math.floor((sorted.length - 1) / 2)] as number
      return Math.min(lease, Math.max(1, Math.ceil(median / 1000)))
    },
  }
}

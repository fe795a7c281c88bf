/**
 * One timer for the batches of every running turn in the process (turn-recorder.ts), instead of a
 * timer per turn: arming and clearing a Node timer per turn cost more than the rest of a
 * deterministic turn's recording (≈ 17 µs of CPU a turn, measured; a deterministic turn takes
 * ≈ 100 µs), and such a turn ends before its batch is due, so all it does here is add and remove
 * its entry. The timer is set for the earliest entry; when it fires it runs every entry that is due
 * and sets itself for the next one, and stops when none is left.
 */
export interface Due {
  /** When to run, in `now()`'s milliseconds. */
  readonly at: number
  readonly run: () => void
}

export interface FlushTimer {
  schedule: (due: Due) => void
  cancel: (due: Due) => void
}

/** The timer functions it uses: the global ones, or a test's, which can then see its timers alone. */
export interface TimerFunctions {
  setTimeout: (run: () => void, ms: number) => ReturnType<typeof setTimeout>
  clearTimeout: (timer: ReturnType<typeof setTimeout> | undefined) => void
}

const globalTimers: TimerFunctions = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer),
}

export function createFlushTimer(now: () => number = () => Date.now(), timers: TimerFunctions = globalTimers): FlushTimer {
  const waiting = new Set<Due>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let timerAt = Number.POSITIVE_INFINITY

  const arm = (at: number): void => {
    if (at >= timerAt) return
    timers.clearTimeout(timer)
    timerAt = at
    timer = timers.setTimeout(tick, Math.max(0, at - now()))
  }

  const tick = (): void => {
    timer = undefined
    timerAt = Number.POSITIVE_INFINITY
    const time = now()
    let next = Number.POSITIVE_INFINITY
    for (const due of [...waiting]) {
      if (due.at <= time) {
        waiting.delete(due)
        due.run()
      } else if (due.at < next) next = due.at
    }
    // an entry a run added is in `waiting` too
    for (const due of waiting) if (due.at < next) next = due.at
    if (next !== Number.POSITIVE_INFINITY) arm(next)
  }

  return {
    schedule(due) {
      waiting.add(due)
      arm(due.at)
    },
    cancel(due) {
      waiting.delete(due)
      // nothing left to run: stop the timer, so that no timer armed for a turn that has gone holds
      // back the next entry (in tests, a real timer another file armed kept a fake-timer batch waiting)
      if (waiting.size === 0) {
        timers.clearTimeout(timer)
        timer = undefined
        timerAt = Number.POSITIVE_INFINITY
      }
    },
  }
}

/** The process's timer. */
export const flushTimer: FlushTimer = createFlushTimer()

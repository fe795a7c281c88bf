import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createFlushTimer, type Due, type TimerFunctions } from '../../src/server/flush-timer.js'

// The one timer behind every turn's batches (flush-timer.ts): entries run when due, in any order
// of scheduling; a cancelled one never runs; the timer stops when nothing waits. Its own timers are
// counted through the timer functions it is given: vi.getTimerCount() counts every fake timer in
// the worker, and in the shared unit graph another file's module may set one meanwhile (it read 1
// there once).

/** The global (fake) timer functions, counting the timers set through them that are still pending. */
function countedTimers(): TimerFunctions & { pending: () => number } {
  const pending = new Set<ReturnType<typeof setTimeout>>()
  return {
    setTimeout: (run, ms) => {
      const timer: ReturnType<typeof setTimeout> = setTimeout(() => {
        pending.delete(timer)
        run()
      }, ms)
      pending.add(timer)
      return timer
    },
    clearTimeout: (timer) => {
      if (timer !== undefined) pending.delete(timer)
      clearTimeout(timer)
    },
    pending: () => pending.size,
  }
}

describe('createFlushTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs each entry once when it is due, an earlier one scheduled later first; a cancelled one never', async () => {
    const timers = countedTimers()
    const timer = createFlushTimer(undefined, timers)
    const ran: string[] = []
    const due = (name: string, inMs: number): Due => ({ at: Date.now() + inMs, run: () => void ran.push(`${name}@${Date.now() - start}`) })
    const start = Date.now()
    const late = due('late', 50)
    timer.schedule(late)
    timer.schedule(due('early', 10))
    const cancelled = due('cancelled', 20)
    timer.schedule(cancelled)
    timer.cancel(cancelled)
    timer.schedule(due('same', 50))
    await vi.advanceTimersByTimeAsync(100)
    expect(ran).toEqual(['early@10', 'late@50', 'same@50'])
    expect(timers.pending()).toBe(0)
  })

  it('an entry scheduled by a run is run when due too', async () => {
    const timers = countedTimers()
    const timer = createFlushTimer(undefined, timers)
    const ran: number[] = []
    const start = Date.now()
    timer.schedule({ at: start + 10, run: () => timer.schedule({ at: Date.now() + 10, run: () => void ran.push(Date.now() - start) }) })
    await vi.advanceTimersByTimeAsync(50)
    expect(ran).toEqual([20])
    expect(timers.pending()).toBe(0)
  })
  it('cancelling the last entry clears the timer: a timer armed by another turn (another file, real timers) never holds back the next', async () => {
    const timers = countedTimers()
    const timer = createFlushTimer(() => Date.now(), timers)
    const gone: Due = { at: Date.now() + 5, run: () => undefined }
    timer.schedule(gone)
    timer.cancel(gone)
    expect(timers.pending()).toBe(0)
    // armed for 5 ms before; a later entry must get its own timer, not wait behind a stale one
    const ran: number[] = []
    const start = Date.now()
    timer.schedule({ at: start + 20, run: () => void ran.push(Date.now() - start) })
    await vi.advanceTimersByTimeAsync(20)
    expect(ran).toEqual([20])
  })
})

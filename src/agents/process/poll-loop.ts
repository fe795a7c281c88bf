/**
 * Runs `tick` every `intervalMs` until stopped, never two at once. `stop()` waits for a running tick
 * and then runs one last tick, so the final state of a finished turn is always read. A tick that
 * throws is reported to `onError` and the loop goes on (a reader must never break a turn).
 */
export interface PollLoop {
  /** Runs a tick now (after the current one, if any). */
  refresh: () => Promise<void>
  stop: () => Promise<void>
}

export function startPollLoop(tick: () => Promise<void>, intervalMs: number, onError: (error: unknown) => void): PollLoop {
  let stopped = false
  let running: Promise<void> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined

  function run(): Promise<void> {
    running = running.then(async () => {
      try {
        await tick()
      } catch (error) {
        onError(error)
      }
    })
    return running
  }

  function schedule(): void {
    if (stopped) return
    timer = setTimeout(() => {
      void run().then(schedule)
    }, intervalMs)
    timer.unref()
  }

  void run().then(schedule)
  return {
    refresh: run,
    async stop() {
      if (stopped) return running
      stopped = true
      if (timer) clearTimeout(timer)
      await run()
    },
  }
}

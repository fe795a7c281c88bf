/**
 * Runs `run` with the global `Date` reading a wall clock shifted by `offsetMs` (`new Date()`,
 * `Date.now()`, `Date()`); dates built from explicit arguments are untouched and `instanceof Date`
 * keeps working. The replay check uses it to make output that secretly depends on the time of day
 * visible. The original `Date` is restored afterwards, also when `run` rejects.
 */
export async function withShiftedWallClock<T>(offsetMs: number, run: () => Promise<T>): Promise<T> {
  const RealDate = globalThis.Date
  const now = (): number => RealDate.now() + offsetMs
  const shifted = new Proxy(RealDate, {
    construct(target, args: unknown[], newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget) as object
    },
    apply() {
      return new RealDate(now()).toString()
    },
    get(target, property, receiver) {
      if (property === 'now') return now
      return Reflect.get(target, property, receiver) as unknown
    },
  })
  globalThis.Date = shifted
  try {
    return await run()
  } finally {
    globalThis.Date = RealDate
  }
}

/** 1 day + 1 h + 1 min + 1 s + 1 ms: every calendar and clock field changes. */
export const REPLAY_CLOCK_OFFSET_MS = 86_400_000 + 3_600_000 + 60_000 + 1_000 + 1

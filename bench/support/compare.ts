/**
 * The benches' ratio of rows measured in the same process (docs/performance.md § How the benches
 * measure): only ratios mean anything on the shared build machine, so every figure is one, and every
 * ratio row in bench/ is measured here, the same way:
 *
 * - each row is warmed up (`warmUpMs` of calls: the JIT settles, caches fill);
 * - a batch is sized by time, not by count: first by doubling until it takes ≥ 10 ms, then after
 *   every batch from that row's own last per-call time, so a machine whose speed drifts under bursty
 *   load (or a row that slows as its heap grows) keeps every batch near `batchMs` — a bench that
 *   sized its batches from one calibration pass was off by 10× between rows;
 * - the rows of a repetition run back to back, in ABBA order (A B, then B A, …; for three rows
 *   A B C, then C B A), so load that drifts, and garbage one row leaves for the next batch's
 *   collector, fall on every row alike;
 * - times are this process's CPU time (user + system, all its threads), not wall time: other
 *   processes' load must not land in one row and not the other. A row that waits on another process
 *   (a Postgres server) uses wall time (`clock: 'wall'`), and says so;
 * - the figure is the median of the per-repetition ratios, printed with their spread (min–max).
 */

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/** A figure: the median of per-repetition values, with their spread. */
export interface Spread {
  median: number
  min: number
  max: number
}

export const spreadOf = (values: readonly number[]): Spread => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) })

export interface Comparison {
  /** µs per call (CPU time, or wall time with `clock: 'wall'`), median over the repetitions. */
  base: number
  subject: number
  /** Median of the per-repetition ratios subject/base: robust to load that drifts between batches. */
  ratio: number
  /** The smallest and largest per-repetition ratio: how far one pair strayed from the median. */
  min: number
  max: number
}

export interface CompareOptions {
  /** Repetitions (each one batch of every row). Default 41. */
  repetitions?: number
  /** Time each batch aims at. Default 30 ms. */
  batchMs?: number
  /** Wall time each row runs before anything is measured. Default 100 ms. */
  warmUpMs?: number
  /** The fewest calls in a batch (default 4, so a slow call still averages; 1 for calls of a second). */
  minBatch?: number
  /** The most calls in a batch, for a row whose every call grows what it measures (an append). */
  maxBatch?: number
  /** `cpu` (default) or `wall`, for rows whose work is another process's. */
  clock?: 'cpu' | 'wall'
}

const clocks = {
  cpu: (): number => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  },
  wall: (): number => performance.now(),
}

/** Calls in a batch of about `ms`, from a measured per-call time. */
const batchOf = (perCallMs: number, ms: number, min: number, max: number): number => Math.max(min, Math.min(max, Math.round(ms / Math.max(perCallMs, 1e-6))))

/**
 * Runs `rows` interleaved as above and returns, per row, its µs per call in every repetition
 * (`result[row][rep]`), for figures derived from several rows at once (a difference of two rows
 * over a third, say). `compare` is the two-row case.
 */
export async function interleave(rows: readonly (() => unknown)[], options: CompareOptions = {}): Promise<number[][]> {
  const { repetitions = 41, batchMs = 30, warmUpMs = 100, minBatch = 4, maxBatch = 1 << 22, clock = 'cpu' } = options
  const now = clocks[clock]
  const timed = async (fn: () => unknown, n: number): Promise<number> => {
    const start = now()
    for (let i = 0; i < n; i++) await fn()
    return now() - start
  }
  const sizes: number[] = []
  for (const fn of rows) {
    for (let warm = performance.now(); performance.now() - warm < warmUpMs; ) await fn()
    let n = Math.min(minBatch, maxBatch)
    let ms = await timed(fn, n)
    while (ms < 10 && n < Math.min(1 << 20, maxBatch)) ms = await timed(fn, (n = Math.min(n * 2, maxBatch)))
    sizes.push(batchOf(ms / n, batchMs, minBatch, maxBatch))
  }
  const perCall = rows.map((): number[] => [])
  const forward = rows.map((_, index) => index)
  const backward = [...forward].reverse()
  for (let rep = 0; rep < repetitions; rep++) {
    for (const row of rep % 2 === 0 ? forward : backward) {
      const n = sizes[row] as number
      const ms = await timed(rows[row] as () => unknown, n)
      perCall[row]?.push((ms * 1000) / n)
      sizes[row] = batchOf(ms / n, batchMs, minBatch, maxBatch)
    }
  }
  return perCall
}

/** Compares two rows (see above): the subject's cost as a ratio of the base's. */
export async function compare(base: () => unknown, subject: () => unknown, options: CompareOptions = {}): Promise<Comparison> {
  const [bases = [], subjects = []] = await interleave([base, subject], options)
  const ratios = subjects.map((value, rep) => value / (bases[rep] as number))
  const { median: ratio, min, max } = spreadOf(ratios)
  return { base: median(bases), subject: median(subjects), ratio, min, max }
}

/** `1.02× (0.97–1.10)`: the median ratio with its spread beside it. */
export const ratioText = (c: Pick<Comparison, 'ratio' | 'min' | 'max'>, digits = 2): string => `${c.ratio.toFixed(digits)}× (${c.min.toFixed(digits)}–${c.max.toFixed(digits)})`

/** The same for a derived figure. */
export const spreadText = (s: Spread, digits = 2): string => ratioText({ ratio: s.median, min: s.min, max: s.max }, digits)

/**
 * The benches' ratio of two rows measured in the same process (docs/performance.md § How ours are
 * measured): only ratios mean anything on the shared build machine, so every figure is one.
 */

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export interface Comparison {
  /** CPU µs per call, median over the repetitions. */
  base: number
  subject: number
  /** Median of the per-repetition ratios subject/base: robust to load that drifts between batches. */
  ratio: number
  /** The smallest and largest per-repetition ratio: how far one pair strayed from the median. */
  min: number
  max: number
}

export interface CompareOptions {
  /** Pairs measured (each pair one batch of each row). Default 41. */
  repetitions?: number
  /** CPU time each batch aims at. Default 30 ms. */
  batchMs?: number
  /** Wall time each row runs before anything is measured (the JIT settles). Default 100 ms. */
  warmUpMs?: number
}

/** CPU ms (`process.cpuUsage`, user + system) of `n` sequential calls. */
async function cpuMs(fn: () => unknown, n: number): Promise<number> {
  const start = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** Calls in a batch of about `ms`, from a measured per-call time (at least 4, so a slow call still averages). */
const batchOf = (perCallMs: number, ms: number): number => Math.max(4, Math.min(1 << 22, Math.round(ms / Math.max(perCallMs, 1e-6))))

/**
 * Compares two rows. Times are this process's CPU time, not wall time: the machine is shared and
 * other processes' load must not land in one row and not the other. Each row is warmed up, its
 * first batch is sized by doubling until it takes ≥ 10 ms, then the pairs run interleaved in ABBA
 * order (garbage one row leaves for the next batch's collector falls on both rows alike), and each
 * row's batch is re-sized after every batch from its own last per-call time, so a machine whose
 * speed drifts (or a row that gets slower as its heap grows) keeps batches near `batchMs`. The
 * median of the per-pair ratios is the figure; `min`–`max` its spread.
 */
export async function compare(base: () => unknown, subject: () => unknown, options: CompareOptions = {}): Promise<Comparison> {
  const { repetitions = 41, batchMs = 30, warmUpMs = 100 } = options
  const size = async (fn: () => unknown): Promise<number> => {
    for (let warm = performance.now(); performance.now() - warm < warmUpMs; ) await fn()
    let n = 4
    let ms = await cpuMs(fn, n)
    while (ms < 10 && n < 1 << 20) ms = await cpuMs(fn, (n *= 2))
    return batchOf(ms / n, batchMs)
  }
  const rows = [base, subject] as const
  const sizes = [await size(base), await size(subject)]
  const perCall: [number[], number[]] = [[], []]
  const ratios: number[] = []
  for (let rep = 0; rep < repetitions; rep++) {
    const order = rep % 2 === 0 ? [0, 1] : [1, 0]
    const pair = [0, 0]
    for (const row of order) {
      const n = sizes[row] as number
      const ms = await cpuMs(rows[row] as () => unknown, n)
      pair[row] = (ms * 1000) / n
      sizes[row] = batchOf(ms / n, batchMs)
    }
    perCall[0].push(pair[0] as number)
    perCall[1].push(pair[1] as number)
    ratios.push((pair[1] as number) / (pair[0] as number))
  }
  return { base: median(perCall[0]), subject: median(perCall[1]), ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) }
}

/** `1.02× (0.97–1.10)`: the median ratio with its spread beside it. */
export const ratioText = (c: Comparison): string => `${c.ratio.toFixed(2)}× (${c.min.toFixed(2)}–${c.max.toFixed(2)})`

/**
 * Complexity checks that hold on a shared, loaded machine. Timing a pass over 20,000 routes
 * against one over 1,000 gives 20× for linear work only on a quiet machine: under load, the larger
 * working set falls out of the caches and collections grow, and even building a Map of the route
 * ids scales 20–60× there. So the bound is relative to that baseline, measured in the same run on
 * the same route objects: linear work stays near it, quadratic work is ~20× above it.
 */

/** The fastest of `runs` calls of `fn`, in ms (the least disturbed by other work). */
export function fastest(fn: () => unknown, runs: number): number {
  let best = Number.POSITIVE_INFINITY
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    fn()
    best = Math.min(best, performance.now() - start)
  }
  return best
}

/** How `pass` scales from `small` to `large` inputs, and how a plain linear pass over the same inputs does. */
export function scaling<T>(small: T, large: T, pass: (input: T) => unknown, baseline: (input: T) => unknown): { ratio: number; baseline: number; bound: number } {
  // Warm both sizes up first (the JIT settles, lazily built structures exist).
  fastest(() => pass(small), 5)
  fastest(() => pass(large), 2)
  fastest(() => baseline(small), 5)
  fastest(() => baseline(large), 2)
  const ratio = fastest(() => pass(large), 7) / fastest(() => pass(small), 7)
  const base = fastest(() => baseline(large), 7) / fastest(() => baseline(small), 7)
  // 20× more routes: linear stays near max(20, base), quadratic is ~20× above it.
  return { ratio, baseline: base, bound: 5 * Math.max(20, base) }
}

/**
 * The bound on open files. Every operation that opens a descriptor (a transcript read, a registry
 * file, a directory listing) runs inside `run`, which admits at most `limit` at a time; each of them
 * opens one descriptor and closes it before it settles, so no descriptor outlives a tick.
 */
export interface FileGate {
  run: <T>(task: () => Promise<T>) => Promise<T>
  /** Runs `task` over `items` through the gate, results in item order. */
  map: <T, R>(items: readonly T[], task: (item: T) => Promise<R>) => Promise<R[]>
  /** Tasks holding a descriptor now. */
  open: () => number
  /** The most ever held at once. */
  peak: () => number
}

export function createFileGate(limit: number): FileGate {
  let open = 0
  let peak = 0
  const waiting: Array<() => void> = []

  async function run<T>(task: () => Promise<T>): Promise<T> {
    // A released slot is handed to the next waiter as is, so no newcomer can slip in between.
    if (open >= limit) await new Promise<void>((admit) => waiting.push(admit))
    else open += 1
    peak = Math.max(peak, open)
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next !== undefined) next()
      else open -= 1
    }
  }

  async function map<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
    return Promise.all(items.map((item) => run(() => task(item))))
  }

  return { run, map, open: () => open, peak: () => peak }
}

import { spawnSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import fc from 'fast-check'

/**
 * The file layer of the reader fuzz suites: hostile line shapes shared by both readers, and a
 * driver that writes the same bytes once whole and once as a series of appends, so a property can
 * compare a full read with an incremental one.
 */

/** The line cap the suites read with: small, so over-cap lines are cheap to make. */
export const FUZZ_LINE_CAP = 2048

/** Each suite property stops after this long (the suites together stay near a minute). */
export const PROPERTY_TIME_MS = 12_000

/** fast-check parameters: bounded by time as well as runs, and an interrupt is not a failure. */
export const BOUNDED = { numRuns: 300, interruptAfterTimeLimit: PROPERTY_TIME_MS, markInterruptAsFailure: false } as const

/** JSON text nested `depth` containers deep, built as text (JSON.stringify cannot write it). */
export function deepJson(depth: number, array = false): string {
  return array ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}"bottom"${'}'.repeat(depth)}`
}

/** Lines no reader should be able to trip on, whatever surrounds them. */
export const hostileLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '   ', '{', '{"type":', 'null', '42', '"text"', '[]', '[1,2]', '{}', '\u0000\u0001', '\uFEFF{}', '{"type":"user"}', '{"type":"assistant","message":null}'),
  fc.integer({ min: FUZZ_LINE_CAP - 4, max: FUZZ_LINE_CAP * 3 }).map((n) => JSON.stringify({ type: 'user', message: { role: 'user', content: 'o'.repeat(n) } })),
  fc.integer({ min: 2000, max: 12_000 }).map((depth) => deepJson(depth)),
  fc.string({ maxLength: 40 }),
)

/** Cut points into a byte string, deduplicated and sorted, ending at its length. */
export function cutPoints(cuts: readonly number[], length: number): number[] {
  return [...new Set(cuts.map((cut) => cut % (length + 1))), length].sort((a, b) => a - b)
}

/** Writes `bytes` to `path` by appends at `points`, calling `read` after each append. */
export async function appendInSteps<T>(path: string, bytes: Buffer, points: readonly number[], read: () => Promise<T>): Promise<T[]> {
  writeFileSync(path, '')
  const results: T[] = []
  let at = 0
  for (const point of points) {
    appendFileSync(path, bytes.subarray(at, point))
    at = point
    results.push(await read())
  }
  return results
}

/** True when every count in a usage is a non-negative safe integer. */
export function validUsage(usage: Record<string, number | undefined> | undefined): boolean {
  return usage === undefined || Object.values(usage).every((value) => value === undefined || (Number.isSafeInteger(value) && value >= 0))
}

/**
 * A FIFO at `path` (no writer: a plain open or read of it blocks forever). False where `mkfifo`
 * is not available (the FIFO case is then skipped, and says so).
 */
export function makeFifo(path: string): boolean {
  const made = spawnSync('mkfifo', [path], { stdio: 'ignore' })
  return made.status === 0
}

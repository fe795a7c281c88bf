/**
 * What a turn measures for its events: tokens counted (`countable`) and time elapsed (`elapsedMs`).
 * Apart from the state's modules (chat-reducer.ts, ids.ts), so that a turn's code, loaded on first
 * use (model-turn-loader.ts), imports these without reaching them: a module both import would be
 * split off by a bundler into a chunk shared with the app's entry, one more gzip stream for its
 * first screen.
 */

/** Clamps a usage figure: non-finite or negative counts add nothing. */
export const countable = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0)

/** Milliseconds between two clock readings; never negative, so a clock stepping back reads as 0. */
export function elapsedMs(start: Date, end: Date): number {
  return Math.max(0, end.getTime() - start.getTime())
}

import type { StreamSource } from '../contract/stream.js'
import { SUPERSEDED } from './superseded.js'
import type { Superseded } from './superseded.js'

/**
 * One generation of work: a model call and its tool loop. Every async step checks `isCurrent()`
 * before it mutates state, so work from a stopped turn is inert (upstream's generation counter).
 */
export interface Turn {
  isCurrent: () => boolean
  /** Registers the turn's live source so a supersede can abort it. */
  attach: (source: StreamSource) => void
  /**
   * Awaits `work` unless the turn is superseded first, in which case it resolves `SUPERSEDED`
   * at once: a stopped turn's promise settles even when an adapter or tool ignores abort.
   */
  race: <T>(work: PromiseLike<T> | T) => Promise<T | Superseded>
}

export interface TurnTracker {
  /** Supersedes the running turn (aborting its source) and starts a new current one. */
  begin: () => Turn
  /** Ends the current turn: its source is aborted, pending races resolve `SUPERSEDED`. */
  supersede: () => void
  /** Bumps on every begin/supersede; lets non-turn work (approve) detect that anything happened. */
  generation: () => number
}

export function createTurnTracker(): TurnTracker {
  let generation = 0
  // The current turn's live source and pending waits; a supersede swaps in fresh ones.
  let source: StreamSource | undefined
  let waiting = new Set<() => void>()

  const supersede = (): void => {
    generation += 1
    const ending = source
    const wakes = waiting
    source = undefined
    waiting = new Set()
    for (const wake of wakes) wake()
    try {
      ending?.abort()
    } catch {
      // A6: abort never throws; an adapter that does anyway must not break stop().
    }
  }

  const begin = (): Turn => {
    supersede()
    const mine = generation
    // One cancel hook per pending wait, removed when the wait settles: unlike racing against a
    // shared never-settling promise, a long stream does not pile up reactions.
    const wakes = waiting
    return {
      isCurrent: () => generation === mine,
      attach: (attached) => {
        if (generation === mine) source = attached
      },
      race: <T>(work: PromiseLike<T> | T) => {
        if (generation !== mine) return Promise.resolve<T | Superseded>(SUPERSEDED)
        return new Promise<T | Superseded>((resolve, reject) => {
          const wake = (): void => resolve(SUPERSEDED)
          wakes.add(wake)
          Promise.resolve(work).then(
            (value) => {
              wakes.delete(wake)
              resolve(value)
            },
            (error: unknown) => {
              wakes.delete(wake)
              // After a supersede the rejection is moot (the promise already resolved).
              reject(error)
            },
          )
        })
      },
    }
  }

  return { begin, supersede, generation: () => generation }
}

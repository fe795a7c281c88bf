import type { StreamSource } from '../contract/stream.js'

/** What `Turn.race` resolves to when the turn was superseded before the awaited work settled. */
export const SUPERSEDED: unique symbol = Symbol('chatrail.turn.superseded')
export type Superseded = typeof SUPERSEDED

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
  let current: { turn: Turn; source: StreamSource | undefined; waiting: Set<() => void> } | undefined

  const supersede = (): void => {
    generation += 1
    const ending = current
    current = undefined
    if (!ending) return
    for (const wake of ending.waiting) wake()
    ending.waiting.clear()
    try {
      ending.source?.abort()
    } catch {
      // A6: abort never throws; an adapter that does anyway must not break stop().
    }
  }

  const begin = (): Turn => {
    supersede()
    const mine = generation
    // One cancel hook per pending wait, removed when the wait settles: unlike racing against a
    // shared never-settling promise, a long stream does not pile up reactions.
    const waiting = new Set<() => void>()
    const turn: Turn = {
      isCurrent: () => generation === mine,
      attach: (source) => {
        if (current?.turn === turn) current.source = source
      },
      race: <T>(work: PromiseLike<T> | T) => {
        if (generation !== mine) return Promise.resolve<T | Superseded>(SUPERSEDED)
        return new Promise<T | Superseded>((resolve, reject) => {
          const wake = (): void => resolve(SUPERSEDED)
          waiting.add(wake)
          Promise.resolve(work).then(
            (value) => {
              waiting.delete(wake)
              resolve(value)
            },
            (error: unknown) => {
              waiting.delete(wake)
              // After a supersede the rejection is moot (the promise already resolved).
              reject(error)
            },
          )
        })
      },
    }
    current = { turn, source: undefined, waiting }
    return turn
  }

  return { begin, supersede, generation: () => generation }
}

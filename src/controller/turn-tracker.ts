import type { StreamSource } from '../contract/stream.js'

/** What `Turn.race` resolves to when the turn was superseded before the awaited work settled. */
export const SUPERSEDED: unique symbol = Symbol('chatrail.turn.superseded')
export type Superseded = typeof SUPERSEDED

/**
 * One generation of work: a model call and its tool loop. Every async step checks `isCurrent()`
 * before it mutates state, so work from a stopped turn is inert (upstream's generation counter).
 */
export interface Turn {
  readonly generation: number
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
  let current: { turn: Turn; source: StreamSource | undefined; cancel: () => void } | undefined

  const supersede = (): void => {
    generation += 1
    const ending = current
    current = undefined
    if (!ending) return
    ending.cancel()
    try {
      ending.source?.abort()
    } catch {
      // A6: abort never throws; an adapter that does anyway must not break stop().
    }
  }

  const begin = (): Turn => {
    supersede()
    const mine = generation
    let cancel: () => void = () => undefined
    const cancelled = new Promise<Superseded>((resolve) => {
      cancel = () => resolve(SUPERSEDED)
    })
    const turn: Turn = {
      generation: mine,
      isCurrent: () => generation === mine,
      attach: (source) => {
        if (current?.turn === turn) current.source = source
      },
      race: async (work) => {
        if (generation !== mine) return SUPERSEDED
        const settled = Promise.resolve(work)
        // The losing side of the race may still reject later; that rejection is moot.
        settled.catch(() => undefined)
        return Promise.race([settled, cancelled])
      },
    }
    current = { turn, source: undefined, cancel }
    return turn
  }

  return { begin, supersede, generation: () => generation }
}

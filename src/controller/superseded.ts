/**
 * What `Turn.race` (turn-tracker.ts) resolves to when the turn was superseded before the awaited
 * work settled. Apart from the tracker, so that a turn's code, loaded on first use
 * (model-turn-loader.ts), checks for it without reaching the tracker (see turn-measures.ts for why
 * that matters to an app's first screen).
 */
export const SUPERSEDED: unique symbol = Symbol('chatrail.turn.superseded')
export type Superseded = typeof SUPERSEDED

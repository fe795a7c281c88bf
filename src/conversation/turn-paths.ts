import type * as TurnPaths from './turn-paths-loaded.js'

/**
 * The paths a plain turn never takes (agentic-generator.ts: agent transitions, the component tool,
 * a failure and the fallback, a stream without `done`, a stop; route-timeout.ts: a route out of
 * time), loaded by the first turn of any session that takes one. Each takes the kit (turn-kit.ts)
 * first: they import nothing the session's chunk holds.
 */

// The promise is kept: an `import()` of a loaded module still costs a resolution, on every turn.
let paths: Promise<typeof TurnPaths> | undefined

export const loadTurnPaths = (): Promise<typeof TurnPaths> => (paths ??= import('./turn-paths-loaded.js'))

/** Whether a turn has asked for them yet (a plain turn never does; tests hold that). */
export const turnPathsRequested = (): boolean => paths !== undefined

import type * as RouteWait from './route-wait.js'

/**
 * route-wait.ts (a route's time limit, a stop while it runs), loaded by the first route callback
 * that returns a promise: a session whose routes answer synchronously never asks (issue 32). Its
 * own loader, not turn-paths.ts: decide.ts needs it, and the turn's rare paths import decide.ts's
 * kit, so going through them would close an import circle.
 */

// The promise is kept: an `import()` of a loaded module still costs a resolution, on every call.
let wait: Promise<typeof RouteWait> | undefined

export const loadRouteWait = (): Promise<typeof RouteWait> => (wait ??= import('./route-wait.js'))

/** Whether a route callback has asked for it yet (a synchronous route table never does; tests hold that). */
export const routeWaitRequested = (): boolean => wait !== undefined

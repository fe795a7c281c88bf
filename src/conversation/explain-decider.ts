import { resolveRoutes } from './decide.js'
import type { Decider } from './explain.js'
import { isPromise } from './is-promise.js'
import { advance, compileMachine, FORM_ATTEMPTS } from './machine.js'
import { commandKey, textKey } from './normalize.js'
import { buildRouteIndex } from './route-index.js'

/**
 * The code explain.ts runs, from the modules a session's turns run (explain.ts says why it is handed
 * in, not imported). One object, shared by every session and by explain-turn.ts.
 */
export const explainDecider: Decider = { resolveRoutes, buildRouteIndex, compileMachine, advance, commandKey, textKey, isPromise, formAttempts: FORM_ATTEMPTS }

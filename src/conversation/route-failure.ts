import type { JsonObject } from './json.js'
import type { ChatrailRouteError } from './route-error.js'
import type { Failure } from './resolution.js'

/**
 * A failed route's words: the `ChatrailRouteError` a failed turn carries in its error chunk, and its
 * message for `explainTurn`. Loaded with what reports a failure (turn-failures.ts, explain.ts), so an
 * app whose routes answer never carries the phrases (issue 32). Imports types only: the error class
 * is handed in, as one class for `instanceof` (turn-kit.ts says why).
 */

const PHRASES: Record<string, string> = {
  'match-threw': 'its match function threw',
  'guard-threw': 'its guard threw',
  'response-threw': 'its response threw',
  'pattern-assign-threw': 'its assign function threw',
  'invalid-output': 'its response returned something other than a string or { text, chunks, assign }',
  'assign-not-json': 'its assign is not JSON',
  // without the registry the session cannot keep components from the adapter's view of history
  'components-undeclared': 'its response holds a component, but the definition names no `components` (pass the registry: defineChat({ components: defineComponents([...]) }))',
}

/** Why the machine refused a route's transition, as the route error says it. */
const REFUSALS: Record<string, string> = {
  'guard-refused': 'guard returned false',
  'guard-threw': 'guard threw',
  'undeclared-event': 'event not declared',
}

const REFUSED = 'transition-refused:'

/** What failed, as the error's message says it: the resolution's own phrase, else the reason's. */
function phraseOf<Ctx extends JsonObject>(failure: Failure<Ctx>): string {
  if (failure.phrase !== undefined) return failure.phrase
  if (failure.route !== undefined && failure.reason.startsWith(REFUSED)) {
    const refusal = failure.reason.slice(REFUSED.length)
    return `the machine refused the transition (${REFUSALS[refusal] ?? refusal})`
  }
  return PHRASES[failure.reason] ?? failure.reason
}

/** The route's id as the error names it (`form` for a form's failure). */
const routeIdOf = <Ctx extends JsonObject>(failure: Failure<Ctx>): string => failure.route?.id ?? 'form'

/** The error's message: `Route "<id>" failed: <phrase>.` */
export function routeFailureMessage<Ctx extends JsonObject>(failure: Failure<Ctx>): string {
  return `Route "${routeIdOf(failure)}" failed: ${phraseOf(failure)}.`
}

/** The failure's `ChatrailRouteError` (made by `make`, the entry's class), with its cause. */
export function routeFailureError<Ctx extends JsonObject>(make: (options: { routeId: string; message: string; cause?: unknown }) => ChatrailRouteError, failure: Failure<Ctx>): ChatrailRouteError {
  return make({ routeId: routeIdOf(failure), message: routeFailureMessage(failure), cause: failure.cause })
}

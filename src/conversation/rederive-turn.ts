import { resolveRoutes, turnContext, type ResolveSettings } from './decide.js'
import type { Rederive } from './decisions.js'
import { isPromise } from './is-promise.js'
import type { JsonObject } from './json.js'
import type { Machine } from './machine.js'
import type { RouteIndex } from './route-index.js'
import { answerDecision } from './route-record.js'

/**
 * Re-derivation for sessions with a `recordKey`: a turn whose answer carries an unsigned or forged
 * record is decided again from the user's text, as the routes decide it now from the state before
 * it — never from what the record claims. Only synchronous routes can be re-derived (reconciliation
 * is synchronous): when a route's match, guard or response returns a promise, or no route matches,
 * the turn stays undecided. Route callbacks run as on a fresh turn (this is not a replay), seeing the
 * history before the message; their `signal` is never aborted. `onRederived` hears each re-derived
 * message id, for the trace.
 */

let never: AbortSignal | undefined
const neverAborted = { signal: (): AbortSignal => (never ??= new AbortController().signal) }
export function rederiveFromText<Ctx extends JsonObject>(
  machine: Machine<Ctx>,
  index: RouteIndex<Ctx>,
  sessionId: string,
  onRederived: (messageId: string) => void,
  settings?: ResolveSettings,
): Rederive<Ctx> {
  return (message, inputKey, before, answerId, history) => {
    const turnId = `${sessionId}:rederived:${message.id}`
    const resolution = resolveRoutes(machine, index, turnContext(message, before, history(), sessionId, turnId, neverAborted), before, settings)
    if (isPromise(resolution)) {
      resolution.then(undefined, () => undefined)
      return undefined
    }
    if (resolution.type !== 'match') return undefined
    onRederived(message.id)
    return answerDecision(message.id, inputKey, before, resolution, turnId, answerId)
  }
}

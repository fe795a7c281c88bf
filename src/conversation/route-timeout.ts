import type { AdapterRequest } from '../contract/adapter.js'
import type { StreamChunk } from '../contract/stream.js'
import type { LastUserMessage } from './decisions.js'
import { fallbackContext } from './fallback-context.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { untilStopped, within } from './route-wait.js'
import type { Route } from './routes.js'
import type { SessionCore, TurnControl } from './session-core.js'
import type { TurnKit } from './turn-kit.js'
import type { TurnRecorder } from './turn-recorder.js'

/** What a fallback that ran out of time in turn resolves to (no output: the fixed apology answers). */
const FALLBACK_TIMED_OUT = Symbol('fallback timed out')

/** The answer when a route ran out of time and no fallback answered (stream.ts has the session's other fixed phrases). */
const ROUTE_TIMEOUT_MESSAGE = 'Sorry, that took too long. Nothing was changed; please try again.'

/**
 * A route ran past its `routeTimeoutMs`: answer the fallback (`conversation.fallback`, seeing
 * `errorClass` `RouteTimeout`; else a fixed apology), commit nothing, trace outcome `timeout`.
 * Loaded by the first turn that times out (turn-kit.ts says why its helpers are handed in).
 */
export async function* timedOut<Ctx extends JsonObject>(
  kit: TurnKit,
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage,
  before: MachineState<Ctx>,
  recorder: TurnRecorder<Ctx>,
  route: Route<Ctx>,
): AsyncGenerator<StreamChunk, void> {
  const response = core.definition.conversation.fallback?.response
  let output = kit.normalizeOutput(ROUTE_TIMEOUT_MESSAGE)
  try {
    let result: unknown = response
    if (typeof response === 'function') {
      // The timeout aborted the route's signal: the fallback gets a fresh one (already aborted after a stop), and the same time limit.
      control.routes = undefined
      const ctx = fallbackContext(kit, core, request, control, last, before, recorder.turnId, 'RouteTimeout')
      result = await untilStopped(kit, within(Promise.resolve(response(ctx.input, ctx)), route, core.definition.conversation, ctx.signal, () => control.routes?.abort(), FALLBACK_TIMED_OUT), control)
    }
    // A fallback that ran out of time (FALLBACK_TIMED_OUT, a symbol: no output) failed, as one that throws: the fixed apology answers.
    output = (response !== undefined && kit.normalizeOutput(result)) || output
  } catch {
    // The fallback failed too: the fixed apology answers.
  }
  for (const chunk of output?.chunks ?? []) {
    if (control.aborted) return
    yield chunk
  }
  if (control.aborted) return
  recorder.finish('timeout', undefined, { reason: `route-timeout:${route.id}`, errorClass: 'RouteTimeout' })
  yield kit.done
}

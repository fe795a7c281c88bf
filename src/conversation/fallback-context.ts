import type { AdapterRequest } from '../contract/adapter.js'
import type { LastUserMessage } from './decisions.js'
import type { FallbackContext } from './definition.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import type { SessionCore, TurnControl } from './session-core.js'
import type { TurnKit } from './turn-kit.js'

/**
 * What `conversation.fallback.response` sees: the turn as a route would (turn-kit.ts's
 * `turnContext`), with its own `signal` (a fresh one once a route's timeout aborted the route's)
 * and the class of the failure it answers (`RouteTimeout`, `MissingAdapter`, the error's class).
 */
export function fallbackContext<Ctx extends JsonObject>(
  kit: TurnKit,
  core: SessionCore<Ctx>,
  request: AdapterRequest,
  control: TurnControl,
  last: LastUserMessage | undefined,
  before: MachineState<Ctx>,
  turnId: string,
  errorClass: string,
): FallbackContext<Ctx> {
  const base = kit.turnContext(last?.message, before, request, core.sessionId, turnId, { signal: () => kit.turnSignal(control) })
  return { ...base, signal: base.signal, errorClass }
}

import type { ChatDefinition } from './definition.js'
import { explainDecider } from './explain-decider.js'
import { explainRoutes as explainRoutesWith, explainTurn as explainWith, type Explanation, type ExplainInput, type RouteExplanation } from './explain.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'

/**
 * `explainTurn` and `explainRoutes` for callers that are not a session (`chatrail explain`, the
 * testing kit): the same decision functions a session's turns run. Not imported by the `chatrail`
 * entry (a session hands them to explain.ts itself).
 */
export function explainTurn<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, input: ExplainInput): Promise<Explanation> {
  return explainWith(definition, at, input, explainDecider)
}

export function explainRoutes<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, input: ExplainInput): Promise<RouteExplanation[]> {
  return explainRoutesWith(definition, at, input, explainDecider)
}

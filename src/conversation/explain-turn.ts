import { resolveRoutes } from './decide.js'
import type { ChatDefinition } from './definition.js'
import { explainTurn as explainWith, type Explanation, type ExplainInput } from './explain.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { buildRouteIndex } from './route-index.js'

/**
 * `explainTurn` for callers that are not a session (`chatrail explain`, the testing kit): the same
 * decision functions a session's turns run. Not imported by the `chatrail` entry (a session hands
 * them to explain.ts itself), so importing decide.ts here costs the entry nothing.
 */
export function explainTurn<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>, at: MachineState<Ctx>, input: ExplainInput): Promise<Explanation> {
  return explainWith(definition, at, input, { resolveRoutes, buildRouteIndex })
}

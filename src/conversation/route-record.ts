import type { Resolution } from './decide.js'
import { fingerprint, recordPatch, type DecisionRecord } from './decision-record.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'

/** The decision record of a route that matched `messageId` (its input `inputKey`) from `before`. Pure. */
export function routeDecisionRecord<Ctx extends JsonObject>(
  messageId: string,
  inputKey: string,
  before: MachineState<Ctx>,
  resolution: Extract<Resolution<Ctx>, { type: 'match' }>,
  turnId: string,
): DecisionRecord {
  const { route } = resolution
  const record: DecisionRecord = {
    v: 1, messageId, input: fingerprint(inputKey), kind: route.traceKind ?? 'deterministic', event: route.event,
    fromState: before.state, toState: resolution.after.state, turnId, routeId: route.id,
  }
  if (resolution.assign) Object.assign(record, recordPatch(resolution.assign as JsonObject))
  return record
}

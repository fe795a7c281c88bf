import type { Answer } from './resolution.js'
import { fingerprint, recordPatch, type DecisionRecord } from './decision-record.js'
import type { Decision } from './decisions.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'

/** The decision record of a deterministic answer to `messageId` (its input `inputKey`) from `before`. Pure. */
export function routeDecisionRecord<Ctx extends JsonObject>(
  messageId: string,
  inputKey: string,
  before: MachineState<Ctx>,
  resolution: Answer<Ctx>,
  turnId: string,
): DecisionRecord {
  const { route, event } = resolution
  const kind = route?.traceKind ?? 'deterministic'
  // Optional fields are left out, not set to undefined (records are signed and compared by their
  // keys). The common case (a route firing an event) is one literal: this is every turn's path.
  const record: { -readonly [K in keyof DecisionRecord]: DecisionRecord[K] } =
    route && event !== undefined
      ? { v: 1, messageId, input: fingerprint(inputKey), kind, event, fromState: before.state, toState: resolution.after.state, turnId, routeId: route.id }
      : { v: 1, messageId, input: fingerprint(inputKey), kind, fromState: before.state, toState: resolution.after.state, turnId }
  if (!route && event !== undefined) record.event = event
  if (route && event === undefined) record.routeId = route.id
  if (resolution.restart) record.restart = true
  if (resolution.outcome) record.outcome = resolution.outcome
  if (resolution.reason) record.reason = resolution.reason
  if (resolution.assign) Object.assign(record, recordPatch(resolution.assign as JsonObject))
  return record
}

/** The decision a deterministic answer commits (and replays from cache: its chunks, outcome and reason). */
export function answerDecision<Ctx extends JsonObject>(
  messageId: string,
  inputKey: string,
  before: MachineState<Ctx>,
  resolution: Answer<Ctx>,
  turnId: string,
  answerId: string | undefined,
): Decision<Ctx> {
  const record = routeDecisionRecord(messageId, inputKey, before, resolution, turnId)
  const decision: { -readonly [K in keyof Decision<Ctx>]: Decision<Ctx>[K] } = { record, inputKey, before, after: resolution.after, chunks: resolution.chunks, answerId }
  if (resolution.outcome === undefined && resolution.reason === undefined) {
    // A route firing its own event, nothing else: the record is what `route` alone rebuilds (decisions.ts keeps only the route).
    const { route, event } = resolution
    if (route && event !== undefined && event === route.event && !resolution.restart && !resolution.assign) decision.route = route
    return decision
  }
  return { ...decision, ...(resolution.outcome ? { outcome: resolution.outcome } : {}), ...(resolution.reason ? { reason: resolution.reason } : {}) }
}

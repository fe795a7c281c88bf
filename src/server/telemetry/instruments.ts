import type { Counter, Histogram, Meter } from '@opentelemetry/api'

/**
 * The handler's metrics. Durations are in seconds, as OpenTelemetry's conventions have them; the
 * buckets run from 1 ms (an in-memory store's write) to 10 min (past the default turn timeout).
 */
export interface Instruments {
  /** `chatrail.turns`: turns run, by `chatrail.turn.kind`, `chatrail.turn.outcome` and (failed) `error.type`. */
  readonly turns: Counter
  /** `chatrail.turn.duration`: from the claim to the stored end, by kind. */
  readonly turnDuration: Histogram
  /** `chatrail.busy_responses`: `409 conversation_busy` answers (another turn held the conversation, or changed it under this one). */
  readonly busyResponses: Counter
  /** `chatrail.store.operation.duration`: each store call, by `chatrail.store.operation`, `chatrail.store.kind` and (failed) `error.type`. */
  readonly storeDuration: Histogram
}

const STORE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const TURN_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]

export function createInstruments(meter: Meter): Instruments {
  return {
    turns: meter.createCounter('chatrail.turns', { unit: '{turn}', description: 'Turns run, by kind (deterministic, agentic, repaired, fallback) and outcome.' }),
    turnDuration: meter.createHistogram('chatrail.turn.duration', { unit: 's', description: 'How long a turn ran, from its claim to its stored end.', advice: { explicitBucketBoundaries: TURN_BUCKETS } }),
    busyResponses: meter.createCounter('chatrail.busy_responses', { unit: '{response}', description: 'Requests answered 409 conversation_busy: another turn of the conversation held it or changed it.' }),
    storeDuration: meter.createHistogram('chatrail.store.operation.duration', { unit: 's', description: 'How long a conversation store operation took.', advice: { explicitBucketBoundaries: STORE_BUCKETS } }),
  }
}

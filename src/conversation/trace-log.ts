import type { ActionPolicyTrace } from '../contract/action-confirmation.js'
import { isoTime, type TurnKind, type TurnOutcome, type TurnTimings, type TurnTiming, type TurnTrace } from './trace.js'

/**
 * The session's bounded log of turn traces, kept as columns: one slot per recorded turn in a ring
 * of parallel arrays, no object per turn (only a turn with a reason, an error class or record
 * counts keeps a small one). A trace object is built when first read (`list()`, or `latest()` for
 * an `onTrace` observer) and then kept, so it is the same object every time.
 *
 * Why columns (issue 20): a ring of per-turn objects kept each turn's record alive for 1,000 turns,
 * so every record survived the young generation and was copied into the old one: that promotion
 * was the largest part of a fallthrough turn's overhead, in time rather than in instructions
 * (memory traffic). A column slot takes the turn's values; the record itself dies young.
 */

/** A finished turn, as the log reads it (the turn's recorder). */
export interface RecordedTurn {
  readonly kind: TurnKind
  readonly outcome: TurnOutcome
  readonly routeId: string | undefined
  readonly event: string | undefined
  readonly fromState: string
  readonly toState: string
  readonly turnId: string
  /** Set when `turnId` is the session's own id for this number: the log keeps the number. */
  readonly turnNumber: number | undefined
  readonly messageId: string | undefined
  readonly replayed: boolean
  readonly startedAt: number
  readonly reason: string | undefined
  readonly errorClass: string | undefined
  /** The clock readings for `timings` (a session made with `timings: true`; else undefined). */
  readonly timing?: TurnTiming | undefined
}

/** What the session adds to a turn's trace (rare: sessions with a `recordKey`, a policy, or `timings`). */
export interface RecordCounts {
  readonly untrustedRecords?: number
  readonly rederivedTurns?: number
  /** Capability-policy decisions since the previous trace (bounded by the session). */
  readonly policy?: readonly ActionPolicyTrace[]
  readonly timings?: TurnTimings
}

export interface TraceLog {
  add: (turn: RecordedTurn, durationMs: number, counts: RecordCounts | undefined) => void
  /** The trace of the turn added last (undefined when the log keeps none). */
  latest: () => TurnTrace | undefined
  /** Oldest first; the same array until the next `add`. */
  list: () => readonly TurnTrace[]
}

/** What few turns carry, kept off the columns every turn writes. */
interface Rare extends RecordCounts {
  readonly reason?: string
  readonly errorClass?: string
}

/**
 * A ring of the last `max` recorded turns of session `sessionId` (O(1) per add). `max` is a whole
 * number ≥ 0 or Infinity (the session checks it); with 0 it lists none but still holds the latest
 * turn, for observers.
 */
export function createTraceLog(max: number, sessionId: string, turnIdOf: (turn: number) => string): TraceLog {
  const size = Math.max(1, max)
  const listed = Math.max(0, max)
  // The columns, one slot per turn, grown as turns come. Number columns hold only numbers, so V8
  // stores them unboxed (no heap number per turn).
  const kinds: TurnKind[] = []
  const outcomes: TurnOutcome[] = []
  const routeIds: (string | undefined)[] = []
  const events: (string | undefined)[] = []
  const fromStates: string[] = []
  const toStates: string[] = []
  /** A turn number (its id built when read), or an id as given. */
  const turns: (number | string)[] = []
  const messageIds: (string | undefined)[] = []
  const replayed: boolean[] = []
  const startedAts: number[] = []
  const durations: number[] = []
  const rares: (Rare | undefined)[] = []
  /** Traces already built, by slot (cleared when the slot is reused). */
  const built: (TurnTrace | undefined)[] = []
  let count = 0
  let next = 0
  let cached: readonly TurnTrace[] | undefined = Object.freeze([])

  function traceAt(slot: number): TurnTrace {
    const done = built[slot]
    if (done) return done
    const turn = turns[slot] as number | string
    const trace: Record<string, unknown> = {
      kind: kinds[slot],
      outcome: outcomes[slot],
      fromState: fromStates[slot],
      toState: toStates[slot],
      turnId: typeof turn === 'number' ? turnIdOf(turn) : turn,
      replayed: replayed[slot],
    }
    // Optional fields are left out, not set to undefined (traces compare and serialise by their
    // keys); set one by one, in this order, so every trace of a kind shares one shape.
    const routeId = routeIds[slot]
    const event = events[slot]
    const messageId = messageIds[slot]
    const rare = rares[slot]
    if (routeId !== undefined) trace.routeId = routeId
    if (event !== undefined) trace.event = event
    if (messageId !== undefined) trace.messageId = messageId
    if (rare?.reason !== undefined) trace.reason = rare.reason
    if (rare?.errorClass !== undefined) trace.errorClass = rare.errorClass
    trace.sessionId = sessionId
    if (rare?.untrustedRecords !== undefined) trace.untrustedRecords = rare.untrustedRecords
    if (rare?.rederivedTurns !== undefined) trace.rederivedTurns = rare.rederivedTurns
    if (rare?.policy !== undefined) trace.policy = rare.policy
    trace.at = isoTime(startedAts[slot] as number)
    trace.durationMs = durations[slot]
    if (rare?.timings !== undefined) trace.timings = rare.timings
    return (built[slot] = Object.freeze(trace) as unknown as TurnTrace)
  }

  return {
    add(turn, durationMs, counts) {
      const slot = next
      next = next + 1 === size ? 0 : next + 1
      if (count < size) count += 1
      kinds[slot] = turn.kind
      outcomes[slot] = turn.outcome
      routeIds[slot] = turn.routeId
      events[slot] = turn.event
      fromStates[slot] = turn.fromState
      toStates[slot] = turn.toState
      // Not the id: built per turn and kept here only, it was promoted out of the young generation on
      // every turn (issue 20: 0.03 of the fallthrough's ratio).
      turns[slot] = turn.turnNumber ?? turn.turnId
      messageIds[slot] = turn.messageId
      replayed[slot] = turn.replayed
      startedAts[slot] = turn.startedAt
      durations[slot] = durationMs
      const { reason, errorClass } = turn
      rares[slot] = reason === undefined && errorClass === undefined && counts === undefined ? undefined : { reason, errorClass, ...counts }
      built[slot] = undefined
      cached = undefined
    },
    latest() {
      return count === 0 ? undefined : traceAt(next === 0 ? size - 1 : next - 1)
    },
    list() {
      if (cached) return cached
      const traces: TurnTrace[] = []
      // Oldest first: once the ring is full, the oldest slot is the next one to be written.
      const first = count < size ? 0 : next
      for (let i = 0; i < Math.min(count, listed); i++) traces.push(traceAt((first + i) % size))
      return (cached = Object.freeze(traces))
    },
  }
}

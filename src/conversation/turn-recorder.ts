import type { JsonObject } from './json.js'
import type { SessionCore } from './session-core.js'
import { isoTime, type RecordedTurn, type TurnKind, type TurnOutcome as TraceOutcome, type TurnTrace } from './trace.js'

/** How a turn ended, as its trace will say (the session adds ids, time and duration). */
export interface TurnOutcome {
  readonly kind: TurnKind
  readonly outcome: TraceOutcome
  readonly routeId?: string
  readonly event?: string
  readonly toState?: string
  readonly reason?: string
  readonly errorClass?: string
}

/**
 * What a turn's trace will say, filled in as the turn is decided and recorded exactly once. A
 * class, so a turn allocates one object rather than a closure per callback. The recorder is the
 * log's entry: the `TurnTrace` object is built when someone reads it (`traces()`, an `onTrace`
 * observer) and then kept; building it on every turn was the largest single cost of a turn's
 * overhead (issue 20), and most turns' traces are never read.
 */
export class TurnRecorder<Ctx extends JsonObject> implements RecordedTurn {
  kind: TurnKind = 'agentic'
  routeId: string | undefined
  event: string | undefined
  turnId = ''
  replayed = false
  #finished = false
  /** Until the routes are resolved the kind is unknown: the stream records an abort once it is. */
  resolved = false
  readonly fromState: string
  readonly #core: SessionCore<Ctx>
  readonly startedAt: number
  readonly messageId: string | undefined
  // Set when the turn is recorded (`finish`), then read only to build the trace.
  outcome: TraceOutcome = 'ok'
  toState = ''
  reason: string | undefined
  errorClass: string | undefined
  durationMs = 0
  untrustedRecords: number | undefined
  rederivedTurns: number | undefined
  #trace: TurnTrace | undefined

  constructor(core: SessionCore<Ctx>, startedAt: number, fromState: string, messageId: string | undefined) {
    this.#core = core
    this.startedAt = startedAt
    this.fromState = fromState
    this.messageId = messageId
  }

  /** The turn is decided: what kind it is, and which route and event (if any) decided it. Fixed once recorded. */
  decided(decision: Pick<TurnOutcome, 'kind' | 'routeId' | 'event'>): void {
    if (this.#finished) return
    this.kind = decision.kind
    this.routeId = decision.routeId
    this.event = decision.event
    this.resolved = true
  }

  /** Records the turn, once (later calls do nothing); `toState` defaults to the state the turn started in. */
  finish(outcome: TraceOutcome, toState = this.fromState, extra?: Pick<TurnOutcome, 'reason' | 'errorClass'>): void {
    if (this.#finished) return
    this.#finished = true
    this.outcome = outcome
    this.toState = toState
    this.reason = extra?.reason
    this.errorClass = extra?.errorClass
    this.#core.trace(this)
  }

  /** Records an agentic (or continuation) outcome; called before the terminal chunk is yielded. */
  settle(outcome: TurnOutcome): void {
    this.decided(outcome)
    this.finish(outcome.outcome, outcome.toState, outcome)
  }

  /** The consumer stopped early: an `aborted` trace, once the turn's kind is known. */
  abort(): void {
    if (this.resolved) this.finish('aborted')
  }

  /** The recorded turn's trace, built on first call and then the same frozen object. */
  trace(): TurnTrace {
    if (this.#trace) return this.#trace
    const trace: Record<string, unknown> = { kind: this.kind, outcome: this.outcome, fromState: this.fromState, toState: this.toState, turnId: this.turnId, replayed: this.replayed }
    // Optional fields are left out, not set to undefined (traces compare and serialise by their
    // keys); set one by one, in this order, so every trace of a kind shares one shape.
    if (this.routeId !== undefined) trace.routeId = this.routeId
    if (this.event !== undefined) trace.event = this.event
    if (this.messageId !== undefined) trace.messageId = this.messageId
    if (this.reason !== undefined) trace.reason = this.reason
    if (this.errorClass !== undefined) trace.errorClass = this.errorClass
    trace.sessionId = this.#core.sessionId
    if (this.untrustedRecords !== undefined) trace.untrustedRecords = this.untrustedRecords
    if (this.rederivedTurns !== undefined) trace.rederivedTurns = this.rederivedTurns
    trace.at = isoTime(this.startedAt)
    trace.durationMs = this.durationMs
    return (this.#trace = Object.freeze(trace) as unknown as TurnTrace)
  }
}

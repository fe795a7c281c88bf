import type { JsonObject } from './json.js'
import type { SessionCore } from './session-core.js'
import type { TurnKind, TurnOutcome as TraceOutcome, TurnTiming } from './trace.js'
import type { RecordedTurn } from './trace-log.js'

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
 * class, so a turn allocates one object rather than a closure per callback. Recording copies it
 * into the session's trace log (trace-log.ts), which builds the `TurnTrace` when it is read; the
 * recorder itself is garbage once its turn ends.
 */
export class TurnRecorder<Ctx extends JsonObject> implements RecordedTurn {
  kind: TurnKind = 'agentic'
  routeId: string | undefined
  event: string | undefined
  /** The session's number for this turn, when its id is the session's own (the log keeps the number). */
  turnNumber: number | undefined
  #turnId: string | undefined
  replayed = false
  #finished = false
  /** Until the routes are resolved the kind is unknown: the stream records an abort once it is. */
  resolved = false
  readonly fromState: string
  readonly #core: SessionCore<Ctx>
  readonly startedAt: number
  readonly messageId: string | undefined
  // Set when the turn is recorded (`finish`).
  outcome: TraceOutcome = 'ok'
  toState = ''
  reason: string | undefined
  errorClass: string | undefined
  /** The clock readings for `trace.timings`, only in a session that records them (one field otherwise). */
  readonly timing: TurnTiming | undefined

  constructor(core: SessionCore<Ctx>, startedAt: number, fromState: string, messageId: string | undefined) {
    this.#core = core
    this.startedAt = startedAt
    this.fromState = fromState
    this.messageId = messageId
    this.timing = core.timings ? { resolvedAt: Number.NaN, adapterAt: Number.NaN, firstChunkAt: Number.NaN } : undefined
  }

  /** The turn's id, built from its number on first read (a fallthrough turn's is never read). */
  get turnId(): string {
    return (this.#turnId ??= this.turnNumber === undefined ? '' : this.#core.turnId(this.turnNumber))
  }

  /** The turn's id: a new session turn number, or a given id (options.ids, a replayed record's). */
  identify(turn: number | string): void {
    if (typeof turn === 'number') this.turnNumber = turn
    else this.#turnId = turn
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
}

/** How an agentic turn records its outcome. */
export interface AgenticRecorder {
  /** Read only when needed (a decision record, a fallback's context): built on first read. */
  readonly turnId: string
  /** Called before the terminal chunk (a consumer may stop pulling at it). */
  settle: (outcome: TurnOutcome) => void
  /** The consumer walked away first (once settled, this does nothing). */
  finish: (outcome: 'aborted') => void
  /** The clock readings for `trace.timings`, in a session that records them. */
  readonly timing: TurnTiming | undefined
}

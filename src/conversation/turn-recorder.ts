import type { JsonObject } from './json.js'
import type { SessionCore } from './session-core.js'
import type { TurnKind, TurnOutcome as TraceOutcome, TurnTrace } from './trace.js'

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
 * class, so a turn allocates one object rather than a closure per callback.
 */
export class TurnRecorder<Ctx extends JsonObject> {
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
  readonly #startedAt: number
  readonly #messageId: string | undefined

  constructor(core: SessionCore<Ctx>, startedAt: number, fromState: string, messageId: string | undefined) {
    this.#core = core
    this.#startedAt = startedAt
    this.fromState = fromState
    this.#messageId = messageId
  }

  /** The turn is decided: what kind it is, and which route and event (if any) decided it. */
  decided(decision: Pick<TurnOutcome, 'kind' | 'routeId' | 'event'>): void {
    this.kind = decision.kind
    this.routeId = decision.routeId
    this.event = decision.event
    this.resolved = true
  }

  /** Records the trace, once (later calls do nothing); `toState` defaults to the state the turn started in. */
  finish(outcome: TurnTrace['outcome'], toState = this.fromState, extra?: Pick<TurnOutcome, 'reason' | 'errorClass'>): void {
    if (this.#finished) return
    this.#finished = true
    const trace: Record<string, unknown> = { kind: this.kind, outcome, fromState: this.fromState, toState, turnId: this.turnId, replayed: this.replayed }
    // Optional fields are left out, not set to undefined (traces compare and serialise by their
    // keys); set one by one, in this order, so every trace of a kind shares one shape.
    if (this.routeId !== undefined) trace.routeId = this.routeId
    if (this.event !== undefined) trace.event = this.event
    if (this.#messageId !== undefined) trace.messageId = this.#messageId
    if (extra?.reason !== undefined) trace.reason = extra.reason
    if (extra?.errorClass !== undefined) trace.errorClass = extra.errorClass
    this.#core.trace(trace as unknown as Omit<TurnTrace, 'sessionId' | 'at' | 'durationMs'>, this.#startedAt)
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

import type { JsonObject } from './json.js'
import type { SessionCore } from './session-core.js'
import type { TurnKind, TurnTrace } from './trace.js'

/** How a turn ended, as its trace will say (the session adds ids, time and duration). */
export interface TurnOutcome {
  readonly kind: TurnKind
  readonly outcome: 'ok' | 'error' | 'aborted'
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
  finished = false
  /** Until the routes are resolved the kind is unknown: the stream records an abort once it is. */
  resolved = false

  constructor(
    private readonly core: SessionCore<Ctx>,
    private readonly startedAt: number,
    readonly fromState: string,
    private readonly messageId: string | undefined,
  ) {}

  finish(outcome: TurnTrace['outcome'], toState: string, extra?: Pick<TurnOutcome, 'reason' | 'errorClass'>): void {
    if (this.finished) return
    this.finished = true
    const trace: Omit<TurnTrace, 'sessionId' | 'at' | 'durationMs'> = { kind: this.kind, outcome, fromState: this.fromState, toState, turnId: this.turnId, replayed: this.replayed }
    if (this.routeId !== undefined) (trace as { routeId?: string }).routeId = this.routeId
    if (this.event !== undefined) (trace as { event?: string }).event = this.event
    if (this.messageId !== undefined) (trace as { messageId?: string }).messageId = this.messageId
    if (extra?.reason !== undefined) (trace as { reason?: string }).reason = extra.reason
    if (extra?.errorClass !== undefined) (trace as { errorClass?: string }).errorClass = extra.errorClass
    this.core.trace(trace, this.startedAt)
  }

  /** Records an agentic (or continuation) outcome; called before the terminal chunk is yielded. */
  settle(outcome: TurnOutcome): void {
    this.kind = outcome.kind
    if (outcome.routeId !== undefined) this.routeId = outcome.routeId
    if (outcome.event !== undefined) this.event = outcome.event
    this.finish(outcome.outcome, outcome.toState ?? this.fromState, outcome)
  }

  /** The consumer stopped early: an `aborted` trace, once the turn's kind is known. */
  abort(): void {
    if (this.resolved) this.finish('aborted', this.fromState)
  }
}

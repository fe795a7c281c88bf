/**
 * Turns of a Codex thread, driven by the agent's own lifecycle events, after upstream's
 * `RolloutTurnLifecycleTracker` / `ThreadHistoryBuilder`:
 *
 * - `task_started` opens an explicit turn (adopting an implicit one that holds only the prompt, for
 *   files that write the prompt first); `task_complete` finishes the turn with that id (an id of an
 *   older finished turn is ignored), `failed` when it carries `error`; `turn_aborted` stops it.
 * - `error` (unless its kind never affects turn status) fails the open turn; model activity in the
 *   same turn afterwards means the turn recovered; a plain `task_complete` does not clear it.
 * - `thread_rolled_back` closes the open turn and drops the last N turns.
 * - Files without lifecycle events: each prompt opens an implicit turn, whose state is inferred
 *   from its messages by the caller.
 *
 * Nothing here ever finishes a turn from silence.
 */

export type TurnStatus = 'running' | 'completed' | 'failed' | 'stopped'

export interface Turn {
  id?: string
  explicit: boolean
  open: boolean
  status: TurnStatus
  /** The seq of the turn's first message (the log's next seq when it opened). */
  firstSeq: number
  /** The abort reason or the error message. */
  detail?: string
  /** `codex_error_info` kind of the failure, when known. */
  errorKind?: string
  /** True once the failure came from an `error` event the turn may still recover from. */
  recoverable?: boolean
  /** The model produced something (text, reasoning, a tool call) in this turn. */
  active: boolean
}

/** Error kinds that upstream's `ErrorEvent::affects_turn_status()` excludes. */
const NON_FATAL_ERROR_KINDS = new Set(['thread_rollback_failed', 'active_turn_not_steerable'])

export function errorAffectsTurn(kind: string | undefined): boolean {
  return kind === undefined || !NON_FATAL_ERROR_KINDS.has(kind)
}

export class TurnLifecycle {
  private readonly list: Turn[] = []
  /**
   * Turns by id, oldest first: finding "the last turn with this id" is a lookup, not a scan (a
   * rollout of `task_complete` lines naming ids that never started made the fold quadratic).
   */
  private readonly byId = new Map<string, Turn[]>()

  get turns(): readonly Turn[] {
    return this.list
  }

  get last(): Turn | undefined {
    return this.list.at(-1)
  }

  /** The turn new messages belong to, when one is open. */
  get open(): Turn | undefined {
    const last = this.list.at(-1)
    return last?.open ? last : undefined
  }

  start(id: string | undefined, nextSeq: number): void {
    const open = this.open
    if (open && !open.explicit && !open.active && open.status === 'running') {
      open.explicit = true
      if (id !== undefined && open.id !== id) {
        this.unindex(open)
        open.id = id
        this.index(open)
      }
      return
    }
    this.closeOpen()
    this.add({ ...(id === undefined ? {} : { id }), explicit: true, open: true, status: 'running', firstSeq: nextSeq, active: false })
  }

  /** A prompt: joins an open explicit turn (steering input), else opens an implicit one. */
  prompt(nextSeq: number): void {
    if (this.open?.explicit) return
    this.closeOpen()
    this.add({ explicit: false, open: true, status: 'running', firstSeq: nextSeq, active: false })
  }

  complete(id: string | undefined, error: { message: string; kind?: string } | undefined, nextSeq: number): void {
    const turn = this.finishing(id, nextSeq)
    if (!turn) return
    turn.open = false
    if (error) this.fail(turn, error.message, error.kind, false)
    else if (turn.status === 'running') turn.status = 'completed'
    else turn.recoverable = false
  }

  /** Returns the stopped turn, or `undefined` when the event names a turn that already ended. */
  abort(id: string | undefined, reason: string, nextSeq: number): Turn | undefined {
    const turn = this.finishing(id, nextSeq)
    if (!turn) return undefined
    turn.open = false
    turn.status = 'stopped'
    turn.detail = reason
    delete turn.errorKind
    delete turn.recoverable
    return turn
  }

  /** An `error` event that affects the turn: fails the open turn (or a new one, so it is seen). */
  error(message: string, kind: string | undefined, nextSeq: number): void {
    const turn = this.open ?? this.openImplicit(nextSeq)
    this.fail(turn, message, kind, true)
  }

  /** The model produced something; a turn failed by an `error` event recovers. */
  activity(): void {
    const turn = this.open
    if (!turn) return
    turn.active = true
    if (turn.status === 'failed' && turn.recoverable) {
      turn.status = 'running'
      delete turn.detail
      delete turn.errorKind
      delete turn.recoverable
    }
  }

  /** Drops the last `count` turns; returns the first seq to drop from the message log. */
  rollback(count: number): number | undefined {
    this.closeOpen()
    if (count <= 0 || this.list.length === 0) return undefined
    const dropped = this.list.splice(Math.max(0, this.list.length - count))
    for (const turn of dropped) this.unindex(turn)
    return dropped[0]?.firstSeq
  }

  private fail(turn: Turn, message: string, kind: string | undefined, recoverable: boolean): void {
    turn.status = 'failed'
    turn.detail = message
    if (kind === undefined) delete turn.errorKind
    else turn.errorKind = kind
    turn.recoverable = recoverable && turn.open
  }

  /**
   * The turn a finishing event applies to: the turn its id names (`undefined`, i.e. ignore, when
   * that turn already ended), else the open turn, else a new empty one (a read that starts
   * mid-turn still learns how the turn ended).
   */
  private finishing(id: string | undefined, nextSeq: number): Turn | undefined {
    if (id !== undefined) {
      const known = this.byId.get(id)?.at(-1)
      if (known) return known.open ? known : undefined
    }
    return this.open ?? this.openImplicit(nextSeq, id)
  }

  private openImplicit(nextSeq: number, id?: string): Turn {
    this.closeOpen()
    const turn: Turn = { ...(id === undefined ? {} : { id }), explicit: false, open: true, status: 'running', firstSeq: nextSeq, active: false }
    this.add(turn)
    return turn
  }

  private add(turn: Turn): void {
    this.list.push(turn)
    this.index(turn)
  }

  private index(turn: Turn): void {
    if (turn.id === undefined) return
    const same = this.byId.get(turn.id)
    if (same === undefined) this.byId.set(turn.id, [turn])
    else same.push(turn)
  }

  /** Turns leave newest first (rollback) or keep their place (an id adopted): either way, find and cut. */
  private unindex(turn: Turn): void {
    if (turn.id === undefined) return
    const same = this.byId.get(turn.id)
    if (same === undefined) return
    const at = same.lastIndexOf(turn)
    if (at !== -1) same.splice(at, 1)
    if (same.length === 0) this.byId.delete(turn.id)
  }

  private closeOpen(): void {
    const open = this.open
    if (open) open.open = false
  }
}

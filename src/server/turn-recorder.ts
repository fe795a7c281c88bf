import type { ConversationStore, Lease } from '../store/conversation-store.js'
import { flushTimer, type Due } from './flush-timer.js'
import type { PartSink } from './part-stream.js'
import type { WirePart } from './tool-parts.js'

/**
 * Records a turn's stream parts in the store as the turn writes them, so a client that reconnects
 * can be served them by any instance (resume-stream.ts). A `PartSink` around the response's sink:
 * the turn writes as before, every part goes to the client at once, and a copy is appended to the
 * store in batches:
 * - the first batch goes `flushMs` after the turn's first part, and each later one `flushMs` after
 *   the first part it holds (or at once when `MAX_PENDING_PARTS` wait); a turn that ends before its
 *   first batch is due records nothing at all (a deterministic turn costs no write; a reconnect
 *   meanwhile waits for the lease to end and reads the stored answer);
 * - the last batch, written when the turn closes its stream (after its answer is stored), carries
 *   `finished`;
 * - within a batch, consecutive deltas of one text or reasoning part are merged into one (the same
 *   text, far fewer bytes than one JSON object per token);
 * - batches never overlap (the store checks their order too); a batch the store could not take
 *   (it was down) is tried again with the next one;
 * - a turn whose parts pass the store's `maxTurnPartsBytes` stops recording (the store marks it
 *   `overflowed`) and records only its `finished` mark: followers end with the stored answer.
 * Recording never changes what the client gets, and a failure only goes to `onError`.
 */
export interface TurnRecorderInput {
  readonly store: ConversationStore
  readonly conversationId: string
  readonly lease: Pick<Lease, 'turnId' | 'token'>
  /** The principal running the turn (undefined: `authenticate: 'none'`). */
  readonly owner: string | undefined
  /** Kept with the record (running-turn.ts: the turn's user message, for GET); made only if a batch is written. */
  readonly header: () => string
  readonly flushMs: number
  readonly sink: PartSink
  readonly onError: (error: unknown) => void
}

/** Parts waiting before a batch goes without waiting for `flushMs` (before merging). */
export const MAX_PENDING_PARTS = 2000

type Outcome = 'recording' | 'overflowed' | 'dead'

export function recordTurnParts(input: TurnRecorderInput): PartSink {
  return typeof input.store.appendTurnParts === 'function' ? new TurnRecorder(input) : input.sink
}

/**
 * A class rather than closures: a deterministic turn allocates this one object and its pending
 * array, and it is its own entry on the flush timer (`at`, `run`).
 */
class TurnRecorder implements PartSink, Due {
  at = 0
  private pending: WirePart[] = []
  private seq = 0
  private created = false
  private outcome: Outcome = 'recording'
  private armed = false
  private inFlight = false
  private closing = false
  private finalSent = false

  constructor(private readonly input: TurnRecorderInput) {}

  get disconnected(): boolean {
    return this.input.sink.disconnected
  }

  write(parts: readonly WirePart[]): void {
    this.input.sink.write(parts)
    if (this.outcome !== 'recording' || this.closing) return
    for (const part of parts) this.pending.push(part)
    if (this.pending.length >= MAX_PENDING_PARTS && !this.inFlight) {
      this.disarm()
      this.run()
    } else if (!this.inFlight) this.arm()
  }

  close(): void {
    this.input.sink.close()
    if (this.closing) return
    this.closing = true
    this.disarm()
    this.finish()
  }

  /** The flush timer's call: the batch is due. */
  run(): void {
    this.armed = false
    if (this.inFlight || this.outcome !== 'recording' || this.pending.length === 0) return
    const parts = this.pending
    this.pending = []
    this.send(parts, false)
  }

  private arm(): void {
    if (this.armed) return
    this.armed = true
    this.at = Date.now() + this.input.flushMs
    flushTimer.schedule(this)
  }

  private disarm(): void {
    if (this.armed) flushTimer.cancel(this)
    this.armed = false
  }

  /** After a batch: the next one, or the end. */
  private settle(): void {
    if (this.closing) this.finish()
    else if (this.pending.length > 0 && this.outcome === 'recording') this.arm()
  }

  private finish(): void {
    if (this.inFlight || this.finalSent || this.outcome === 'dead') return
    // nothing was ever recorded: the turn ended before its first batch was due
    if (!this.created && this.seq === 0) return
    this.finalSent = true
    const parts = this.outcome === 'recording' ? this.pending : []
    this.pending = []
    this.send(parts, true)
  }

  private send(parts: WirePart[], finished: boolean): void {
    const { input } = this
    this.inFlight = true
    const first = this.seq === 0
    const texts = mergeDeltas(parts).map((part) => JSON.stringify(part))
    ;(input.store.appendTurnParts as NonNullable<ConversationStore['appendTurnParts']>)(input.conversationId, {
      lease: input.lease,
      seq: this.seq,
      parts: texts,
      ...(finished ? { finished: true } : {}),
      ...(first ? { header: input.header(), ...(input.owner === undefined ? {} : { owner: input.owner }) } : {}),
    }).then(
      (result) => {
        if (result.status === 'appended') {
          this.seq = result.next
          this.created = true
        } else if (result.status === 'overflow') {
          this.created = true
          this.outcome = 'overflowed'
          this.finalSent ||= finished
        } else {
          // fenced (the lease ended before the first batch), gone (swept or deleted), conflict (a bug)
          if (result.status === 'conflict') input.onError(new Error(`recordTurnParts: the store holds ${result.next} parts of this turn, not ${this.seq}`))
          this.outcome = 'dead'
        }
      },
      (error: unknown) => {
        input.onError(error)
        // not written: the parts go again with the next batch (the last one only once)
        if (!finished) this.pending = [...parts, ...this.pending]
      },
    ).finally(() => {
      this.inFlight = false
      this.settle()
    })
  }
}

/** Consecutive deltas of one text or reasoning part as one delta (pure; the text is unchanged). */
export function mergeDeltas(parts: readonly WirePart[]): WirePart[] {
  const merged: WirePart[] = []
  for (const part of parts) {
    const last = merged[merged.length - 1]
    if (part.type === 'text-delta' && last?.type === 'text-delta' && last.id === part.id) merged[merged.length - 1] = { ...last, delta: last.delta + part.delta }
    else if (part.type === 'reasoning-delta' && last?.type === 'reasoning-delta' && last.id === part.id) merged[merged.length - 1] = { ...last, delta: last.delta + part.delta }
    else merged.push(part)
  }
  return merged
}

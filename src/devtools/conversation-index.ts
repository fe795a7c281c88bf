import type { ConversationStore, ConversationSummary } from '../store/conversation-store.js'

/**
 * Every stored conversation's summary, newest write first, kept in step with the store from what
 * the port offers. The port lists oldest `updatedAt` first with a keyset cursor, and a write moves
 * a conversation to the end of that order, so after one full scan the index only reads on from
 * the last cursor the store handed out: one short query per refresh sees every conversation
 * written since (by any instance sharing the store). What that cannot see — a deletion, an expiry,
 * a write stamped earlier than the cursor by an instance whose clock lags — a full scan every
 * `fullScanMs` catches; only the first one is waited for, later ones run beside the requests (a
 * scan of 10,000 conversations takes a good part of a second on PGlite) and are merged in when
 * they end, keeping whatever the short refreshes saw meanwhile. Refreshes are coalesced: a caller
 * arriving while one runs waits for the next, which starts after it (so it sees its own writes).
 */

export interface ConversationIndexOptions {
  readonly store: ConversationStore
  /** Milliseconds since the epoch (the full-scan schedule reads it). */
  readonly clock: () => number
  /** How often to scan everything again. Default 60 s. */
  readonly fullScanMs?: number
  /** Where a background scan's failure goes. */
  readonly onError: (error: unknown) => void
}

/** The listing order: newest `updatedAt` first, ties by id descending (the reverse of the store's). */
export function newerFirst(a: ConversationSummary, b: ConversationSummary): number {
  return b.updatedAt.getTime() - a.updatedAt.getTime() || (a.conversationId < b.conversationId ? 1 : a.conversationId > b.conversationId ? -1 : 0)
}

const SCAN_PAGE = 1000
const TAIL_PAGE = 100

const same = (a: ConversationSummary | undefined, b: ConversationSummary): boolean => a !== undefined && a.version === b.version && a.updatedAt.getTime() === b.updatedAt.getTime()
/** The later of two summaries of one conversation (a deleted and re-created one restarts its version, not its time). */
const later = (a: ConversationSummary, b: ConversationSummary): ConversationSummary => (b.updatedAt.getTime() > a.updatedAt.getTime() || (b.updatedAt.getTime() === a.updatedAt.getTime() && b.version > a.version) ? b : a)

export class ConversationIndex {
  private byId = new Map<string, ConversationSummary>()
  private sorted: ConversationSummary[] = []
  private dirty = false
  /** The last cursor the store handed out: every row after it is read on each refresh. */
  private resume: string | undefined
  private scannedAt = Number.NEGATIVE_INFINITY
  private scanned = false
  private running: Promise<void> | undefined
  private queued: Promise<void> | undefined
  /** A full scan running beside the requests, and the ids the short refreshes wrote meanwhile. */
  private background: Promise<void> | undefined
  private touched: Set<string> | undefined
  private readonly fullScanMs: number

  constructor(private readonly options: ConversationIndexOptions) {
    this.fullScanMs = options.fullScanMs ?? 60_000
  }

  /** Brings the index up to the store's latest writes. */
  refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.read().finally(() => (this.running = undefined))
      return this.running
    }
    // a refresh already under way may have listed before the caller's latest write: one more after it
    this.queued ??= this.running.then(
      () => this.startQueued(),
      () => this.startQueued(),
    )
    return this.queued
  }

  /** Newest first. The array is shared: do not change it. */
  entries(): readonly ConversationSummary[] {
    if (this.dirty) {
      this.sorted = [...this.byId.values()].sort(newerFirst)
      this.dirty = false
    }
    return this.sorted
  }

  get(conversationId: string): ConversationSummary | undefined {
    return this.byId.get(conversationId)
  }

  /** Drops a conversation a load found gone (deleted between two scans). */
  forget(conversationId: string): void {
    if (this.byId.delete(conversationId)) this.dirty = true
  }

  /** The background scan under way, if any (tests wait for it). */
  settled(): Promise<void> {
    return this.background ?? Promise.resolve()
  }

  private startQueued(): Promise<void> {
    this.queued = undefined
    return this.refresh()
  }

  private async read(): Promise<void> {
    if (!this.scanned) {
      await this.fullScan()
      return
    }
    await this.tail()
    if (!this.background && this.options.clock() - this.scannedAt >= this.fullScanMs) {
      this.background = this.fullScan()
        .catch(this.options.onError)
        .finally(() => (this.background = undefined))
    }
  }

  /** Reads on from the last cursor: the conversations written since. */
  private async tail(): Promise<void> {
    let cursor = this.resume
    for (;;) {
      const page = await this.options.store.list({ limit: TAIL_PAGE, ...(cursor === undefined ? {} : { cursor }) })
      for (const summary of page.conversations) {
        if (same(this.byId.get(summary.conversationId), summary)) continue
        this.byId.set(summary.conversationId, summary)
        this.touched?.add(summary.conversationId)
        this.dirty = true
      }
      if (page.nextCursor === undefined) break
      cursor = this.resume = page.nextCursor
    }
  }

  private async fullScan(): Promise<void> {
    const startedAt = this.options.clock()
    this.touched = new Set()
    try {
      const seen = new Map<string, ConversationSummary>()
      let cursor: string | undefined
      let last: string | undefined
      for (;;) {
        const page = await this.options.store.list({ limit: SCAN_PAGE, ...(cursor === undefined ? {} : { cursor }) })
        for (const summary of page.conversations) seen.set(summary.conversationId, summary)
        if (page.nextCursor === undefined) break
        cursor = last = page.nextCursor
      }
      // what a short refresh saw while the scan ran is at least as new as what the scan saw
      for (const id of this.touched) {
        const kept = this.byId.get(id)
        const scanned = seen.get(id)
        if (kept) seen.set(id, scanned ? later(scanned, kept) : kept)
      }
      this.byId = seen
      this.dirty = true
      this.resume ??= last
      this.scannedAt = startedAt
      this.scanned = true
    } finally {
      this.touched = undefined
    }
  }
}

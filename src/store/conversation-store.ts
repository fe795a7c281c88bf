import type { ConfirmationLedger } from '../contract/action-confirmation.js'
import type { Message } from '../contract/message.js'
import type { TurnPartsAppend, TurnPartsAppendResult, TurnPartsRead, TurnPartsReadOptions } from './turn-parts.js'

/**
 * The `ConversationStore` port: a durable, concurrency-safe home for a conversation's history.
 *
 * A conversation is an append-only log of messages plus a `version` that every successful write
 * increments. Writes are compare-and-swap on that version (a conflict is `StoreConflictError`,
 * never a silent overwrite), cost O(the messages written), not O(history), and are atomic: a write
 * either lands whole or not at all. A turn can be fenced by a lease (`claim`): its token travels
 * with the write, and a write carrying a token that was superseded is refused (`StoreLeaseError`).
 * Every implementation passes `describeStoreContract` (chatrail/testing/vitest).
 */

/** Which definition a conversation was written under (`ChatDefinition.id` and `.revision`). */
export interface DefinitionRef {
  readonly id: string
  readonly revision: number
}

export interface StoredConversation {
  readonly conversationId: string
  /** The log, oldest first; `createdAt` is a `Date` again. */
  readonly messages: Message[]
  /** Increments on every successful write; 0 means "absent" in a write's `expectedVersion`. */
  readonly version: number
  readonly definition: DefinitionRef
  /** The principal the conversation belongs to (set by its first write's `owner`; absent: nobody's). */
  readonly owner?: string
  readonly createdAt: Date
  readonly updatedAt: Date
  /**
   * Present when the load asked for a range (`LoadOptions`): where `messages` sit in the whole log.
   * `from` is the 0-based position of the first message returned, `total` the log's length, so
   * `from > 0` means there are older messages (ask again with `beforeMessage: messages[0].id`).
   */
  readonly range?: MessageRange
}

export interface MessageRange {
  readonly from: number
  readonly total: number
}

/**
 * A part of the log instead of all of it, read in one statement (a 10,000-message conversation
 * need not be read whole to show its last turns). Either option alone, or both.
 */
export interface LoadOptions {
  /** Only the newest `n` messages (0: none, only the conversation's header and `range`); a non-negative integer. */
  readonly lastMessages?: number
  /**
   * Only messages stored before this message id (a page further back). An id not stored (any
   * more: an edit cut it) is a `ChatrailConfigError` with code `unknown_message`.
   */
  readonly beforeMessage?: string
}

/** The most conversations one `loadDecisions` reads. */
export const MAX_DECISION_LOGS = 100

/** A conversation in a listing: everything but its messages. */
export interface ConversationSummary {
  readonly conversationId: string
  readonly version: number
  readonly definition: DefinitionRef
  readonly owner?: string
  readonly messageCount: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** A turn lease: the token fences writes (a later claim gets a larger token). */
export interface Lease {
  readonly conversationId: string
  readonly turnId: string
  readonly token: number
  readonly expiresAt: Date
}

/**
 * What a conversation's writes change, as `claim` found it: every successful write increments
 * `version`, so a caller that read the conversation before claiming and finds the same stamp here
 * knows the history it read is the one its lease now guards (the lease fences every later write).
 */
export interface ConversationStamp {
  /** 0: no conversation is stored. */
  readonly version: number
  /** The definition revision it was last written under (absent when none is stored). */
  readonly revision?: number
  /** When it was last written (absent when none is stored). */
  readonly updatedAt?: Date
}

export type ClaimResult =
  | {
      readonly status: 'claimed'
      readonly lease: Lease
      /**
       * The conversation as it stood when the lease was taken, read atomically with taking it (one
       * statement, no extra round trip). Optional for stores written before it existed: absent, the
       * caller loads the conversation under the lease instead.
       */
      readonly current?: ConversationStamp
    }
  | { readonly status: 'busy'; readonly turnId: string; readonly expiresAt: Date }

/** How a turn ended, kept with the lease for whoever looks next. */
export type LeaseOutcome = 'completed' | 'failed' | 'abandoned'

export interface AppendInput {
  /** The version the caller last saw (0: the conversation must not exist yet). */
  readonly expectedVersion: number
  readonly messages: readonly Message[]
  /** The definition the messages were produced under; required to create, checked on every write. */
  readonly definition: DefinitionRef
  /**
   * Edit / regenerate / retry: drop every message after this id before appending (`null`: drop all).
   * Omitted: a plain append.
   */
  readonly truncateAfter?: string | null
  /** The caller's turn lease; the write is refused when it is no longer current. */
  readonly lease?: Pick<Lease, 'turnId' | 'token'>
  /** Release the lease in the same write (one round trip for "commit the turn and let go"). */
  readonly release?: LeaseOutcome
  /**
   * The principal writing. Kept by the write that creates the conversation (and never changed);
   * a later write naming another owner is refused (`OwnerMismatchError`). Omitted: not checked.
   */
  readonly owner?: string
}

export type AppendResult =
  | { readonly status: 'appended'; readonly version: number }
  /**
   * The first message's id is already stored (a network retry of a turn that already ran): nothing
   * was written; `messages` is what is stored from that message on (the turn's stored outcome).
   */
  | { readonly status: 'duplicate'; readonly version: number; readonly messages: Message[] }

export interface ListOptions {
  readonly definitionId?: string
  /** Only this principal's conversations. */
  readonly owner?: string
  /** Only conversations last written before this time. */
  readonly updatedBefore?: Date
  /** Default 100, at most 1000. */
  readonly limit?: number
  /** `nextCursor` of the previous page, listed in the same `order`. */
  readonly cursor?: string
  /**
   * `oldest` (the default): oldest `updatedAt` first, ties by id ascending; `newest`: newest first,
   * ties by id descending. A write moves a conversation to the newest end.
   */
  readonly order?: ListOrder
}

export type ListOrder = 'oldest' | 'newest'

export interface ListPage {
  /** In `ListOptions.order` (oldest `updatedAt` first by default; ties by id). */
  readonly conversations: ConversationSummary[]
  /** Present when there may be more. */
  readonly nextCursor?: string
}

/**
 * What another instance can ask of the turn holding a conversation's lease (instances never talk
 * to each other: the signal waits in the store until the holder takes it, woken by `subscribe`
 * where the store has it, else at its next poll).
 * - `stop`: end the turn now;
 * - `dialog-answer`: an answer to the running agent's pending dialog, as JSON text the store does
 *   not read (one at a time: a newer answer replaces one not yet taken).
 */
export type TurnSignal = { readonly type: 'stop' } | { readonly type: 'dialog-answer'; readonly payload: string }

/** Why `subscribe` woke a reader: what was written, or `missed` (wakes may have been lost: read everything). */
export type StoreWake = 'signal' | 'turn-parts' | 'missed'

/** The signals waiting for a lease, as `takeSignals` hands them out (a dialog answer only once). */
export interface TurnSignals {
  readonly stop: boolean
  readonly dialogAnswer?: string
}

export interface ConversationStore {
  /** Which implementation (`memory`, `pglite`, `postgres`, or a third party's). */
  readonly kind: string
  /**
   * Opens the store now (connects, takes a PGlite directory's lock, migrates) instead of on the
   * first operation, and rejects as that operation would (`StoreUnavailableError`, a missing peer
   * package's `ChatrailConfigError`). A failed open is not kept: the next call tries again.
   * Optional in the port: a store without it opens on first use.
   */
  open?: () => Promise<void>
  /** The conversation, whole, or the part `options` asks for (with `range`). */
  load: (conversationId: string, options?: LoadOptions) => Promise<StoredConversation | undefined>
  /**
   * Whole logs as a walk of their decisions needs them, for up to `MAX_DECISION_LOGS` conversations
   * in one read: every message with its id, role, status, `createdAt`, `metadata` (the decision
   * record, a user's ui-event) and `toolCallId`, and `content` for user messages only (`''` for the
   * others), without `parts` and `toolCalls` (decision-view.ts `decisionViewOf` of what `load`
   * returns). In the order of `conversationIds`; a conversation not stored is left out. One read
   * for a page of conversations (a listing's facts) or one long conversation (the state before a
   * message), without its answers: optional in the port; without it, a reader loads each whole.
   */
  loadDecisions?: (conversationIds: readonly string[]) => Promise<StoredConversation[]>
  append: (conversationId: string, input: AppendInput) => Promise<AppendResult>
  /**
   * Takes the conversation's turn lease, or reports who holds it. An expired lease can be taken over.
   * `owner`: the principal running the turn, so only they can `signal` it (a first turn has no stored conversation to check against).
   */
  claim: (conversationId: string, turnId: string, options: { leaseMs: number; owner?: string }) => Promise<ClaimResult>
  /** Extends a lease still current (even if past its expiry, as long as nobody took it over); else `StoreLeaseError`. */
  renew: (lease: Lease, options: { leaseMs: number }) => Promise<Lease>
  /** Ends a lease; false when it was no longer current (taken over or already released). */
  release: (lease: Pick<Lease, 'conversationId' | 'token'>, outcome: LeaseOutcome) => Promise<boolean>
  /**
   * Leaves a signal for the turn holding the conversation's unexpired lease; false when no turn holds
   * it. `owner`: only a turn claimed by that owner takes it.
   */
  signal: (conversationId: string, signal: TurnSignal, options?: { owner?: string }) => Promise<boolean>
  /** The signals left for this lease (the holder polls it while the turn runs); a lease no longer current reads as `stop`. */
  takeSignals: (lease: Pick<Lease, 'conversationId' | 'token'>) => Promise<TurnSignals>
  /**
   * Appends a batch of a running turn's stream parts (see turn-parts.ts for the rules), so a client
   * that reconnects can be served them by any instance. Optional in the port: a store without it
   * (one written before it) serves no resumable streams, and the handler answers a reconnect 204.
   */
  appendTurnParts?: (conversationId: string, input: TurnPartsAppend) => Promise<TurnPartsAppendResult>
  /** A turn's stored parts from a sequence number, with the conversation's lease; one read. Optional with `appendTurnParts`. */
  readTurnParts?: (conversationId: string, options?: TurnPartsReadOptions) => Promise<TurnPartsRead>
  /**
   * Calls `onWake` soon after a `signal` (`'signal'`) or an `appendTurnParts` (`'turn-parts'`) for
   * this conversation commits, on any instance the store's database reaches (Postgres:
   * `LISTEN/NOTIFY`; PGlite and memory: the one process), so the turn's holder and a resumed stream
   * read at once instead of at their next poll. A hint, never data, and never guaranteed: a wake can
   * be spurious or lost; when wakes may have been lost (a listener that reconnected) every
   * subscriber gets `'missed'`. So a subscriber reads the store when woken and keeps polling as the
   * fallback. Returns the unsubscribe. Optional in the port: without it, readers only poll.
   */
  subscribe?: (conversationId: string, onWake: (reason: StoreWake) => void) => () => void
  /**
   * Action confirmation records (src/conversation/action-confirmation.ts), keyed by token, written
   * by compare-and-swap on their `revision` (false: another writer got there first). Optional in
   * the port: a store without them serves no confirmations (the handler's endpoints answer 501).
   */
  saveConfirmation?: ConfirmationLedger['saveConfirmation']
  loadConfirmation?: ConfirmationLedger['loadConfirmation']
  listConfirmations?: ConfirmationLedger['listConfirmations']
  /** Deletes a conversation, its lease, its turns' parts and its confirmation records; false when there was none. */
  delete: (conversationId: string) => Promise<boolean>
  list: (options?: ListOptions) => Promise<ListPage>
  /** Deletes conversations idle for longer than `idleMs` (and not under an unexpired lease) with their turns' parts, and sweeps idle turn parts; returns how many conversations. */
  expire: (options: { idleMs: number }) => Promise<number>
  /** Releases connections (a pool the store created, an embedded database). */
  close: () => Promise<void>
}

/** Options every store takes. */
export interface StoreOptions {
  /** Milliseconds since the epoch; inject one in tests (leases and expiry read it). Default `Date.now`. */
  clock?: () => number
  /** The largest message (its JSON, in UTF-8 bytes) a write accepts. Default 1 MiB. */
  maxMessageBytes?: number
  /** The most a running turn's stream parts may take (UTF-8 bytes) for resuming; past it, see `appendTurnParts`. Default 8 MiB. */
  maxTurnPartsBytes?: number
}

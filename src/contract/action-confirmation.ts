/**
 * Action confirmation and capability policy: the shapes every layer shares (the reducer lives in
 * src/conversation/confirmation-record.ts, the coordinator beside it, the stores' persistence in
 * src/store, the endpoints in src/server). Field names follow AgentsKit Chat's
 * `ActionConfirmation`, plus what surviving a crash needs (`revision`, `claim`, `idempotencyKey`).
 */

/**
 * - `pending`: waiting for a decision (until `expiresAt`).
 * - `approving`: one approver claimed it (compare-and-swap from `pending`); checks run before it executes.
 * - `executing`: the action was handed to its `execute` with `idempotencyKey`; a crash here is
 *   reconciled by calling `execute` again with the same key, never with a new one.
 * - `rejecting` / `expiring`: decided, the proposal is being withdrawn upstream (a tool call denied).
 * - `approved` / `rejected` / `expired`: final.
 */
export type ActionConfirmationStatus = 'pending' | 'approving' | 'executing' | 'rejecting' | 'expiring' | 'approved' | 'rejected' | 'expired'

/** A typed action: a tool's name and its input (a plain JSON object). */
export interface ConfirmableAction<Input extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>> {
  readonly name: string
  readonly input: Input
}

/** Who holds a record in a processing status, until when (a reconcile may take over after `until`). */
export interface ConfirmationClaim {
  readonly id: string
  readonly until: number
}

/** How the action's `execute` ended. */
export interface ConfirmationOutcome {
  readonly status: 'complete' | 'error'
  /** A fixed-size description of the failure (at most 512 characters); never the input. */
  readonly error?: string
  /**
   * The result as the model reads it, when the executor gives one (at most 16,384 characters): a
   * server's AI SDK tool approval keeps it here, so whichever door executed the call, the paused
   * turn goes on with its result and never runs it again.
   */
  readonly result?: string
}

/** One confirmation record. Deep-frozen; every change is a new record with `revision + 1`. */
export interface ActionConfirmation {
  /** Unguessable (128 random bits, base64url); the only handle an approver needs. */
  readonly token: string
  /** The session (conversation) it was proposed in; an approve from another session is refused. */
  readonly sessionId: string
  /** The principal it belongs to (absent: an unauthenticated session). */
  readonly principal?: string
  /** The action, its input a deep-frozen structured clone of what was proposed. */
  readonly action: ConfirmableAction
  /** The tool call it confirms (AgentsKit's `requires_confirmation` call id). */
  readonly toolCallId: string
  /** Milliseconds since the epoch. */
  readonly createdAt: number
  readonly expiresAt: number
  readonly status: ActionConfirmationStatus
  /** When it was approved, rejected or expired. */
  readonly decidedAt?: number
  /** Who decided: a principal, `'policy'` (revoked at execute), `'expiry'` or `'anonymous'`. */
  readonly decidedBy?: string
  /** Why it was rejected or expired (a fixed phrase or the approver's reason, at most 512 characters). */
  readonly reason?: string
  /** Passed to the action's `execute` (`ToolExecutionContext.idempotencyKey`); the same key on every attempt. */
  readonly idempotencyKey: string
  /** The current holder of a processing status. */
  readonly claim?: ConfirmationClaim
  /** How many times a processing status was taken over by `reconcile`. */
  readonly attempts: number
  readonly outcome?: ConfirmationOutcome
  /** Incremented by every change: the store's compare-and-swap compares it. */
  readonly revision: number
}

/**
 * What can happen to a record. The reducer ignores an event its status does not take (the same
 * record comes back), so a late or doubled event is harmless.
 */
export type ConfirmationEvent =
  | { readonly type: 'approve'; readonly by: string; readonly claim: ConfirmationClaim }
  | { readonly type: 'reject'; readonly by: string; readonly reason?: string; readonly claim: ConfirmationClaim }
  | { readonly type: 'expire'; readonly claim: ConfirmationClaim }
  /** The checks before execute passed: the action is handed to `execute` now (same claim only). */
  | { readonly type: 'execute'; readonly claimId: string }
  | { readonly type: 'executed'; readonly claimId: string; readonly outcome: ConfirmationOutcome }
  /** The execute-phase check refused (revoked between propose and execute): withdraw it. */
  | { readonly type: 'deny'; readonly claimId: string; readonly by: string; readonly reason: string }
  /** The proposal was withdrawn upstream: `rejecting` → `rejected`, `expiring` → `expired`. */
  | { readonly type: 'withdrawn'; readonly claimId: string }
  /** A transient failure before `execute` (nothing ran): back to `pending`, the claim dropped. */
  | { readonly type: 'release'; readonly claimId: string }
  /**
   * The upstream failed mid-way (`execute` or the withdrawal threw): the record stays in its
   * processing status and the holder gives up its claim, so a retry (approve or reject again,
   * `reconcile`) takes it over at once and finishes it, `execute` again with the same key.
   */
  | { readonly type: 'failed'; readonly claimId: string }
  /** A processing status whose claim ran out is taken over by a new claim (crash recovery). */
  | { readonly type: 'reconcile'; readonly claim: ConfirmationClaim }

/** A change, as `onChange` and `subscribe` get it: one event per record that changed. */
export interface ConfirmationChange {
  readonly record: ActionConfirmation
  readonly from: ActionConfirmationStatus | undefined
  readonly to: ActionConfirmationStatus
}

/**
 * Where records live between processes: a compare-and-swap on `revision`. `ConversationStore`
 * implementations that support confirmations provide it (memory, PGlite, Postgres).
 */
export interface ConfirmationLedger {
  /** Writes `record` when the stored one has revision `expected` (0: none stored); false on a lost race. */
  saveConfirmation: (record: ActionConfirmation, expected: number) => Promise<boolean>
  loadConfirmation: (token: string) => Promise<ActionConfirmation | undefined>
  /** A session's records, oldest first (at most `limit`, default 100). */
  listConfirmations: (sessionId: string, options?: { readonly limit?: number }) => Promise<ActionConfirmation[]>
  /**
   * The last record of a session's tool call, synchronously, for a ledger that holds its records
   * in memory (the memory ledger, a persisted session's snapshot); absent when reading needs I/O.
   * Lets `getByToolCall` answer at once after a resume.
   */
  peekByToolCall?: (sessionId: string, toolCallId: string) => ActionConfirmation | undefined
}

/** Why a capability policy allowed or refused an action. */
export type ActionPolicyReason =
  | 'allowed'
  | 'missing-context'
  | 'session-mismatch'
  | 'action-unregistered'
  | 'missing-capability'
  | 'composed-policy-denied'
  | 'policy-failure'

/** Where a policy check ran: a proposal, right before execute, or a deterministic route. */
export type ActionPolicyPhase = 'propose' | 'execute' | 'route'

/** What `getContext` returns: the trusted caller's session and capabilities (never from tool args). */
export interface TrustedActionContext {
  readonly sessionId: string
  readonly capabilities: readonly string[]
}

export interface ActionPolicyDecision {
  readonly allowed: boolean
  readonly reason: ActionPolicyReason
}

/** One decision as traces keep it: names only, never the action's input or the context. */
export interface ActionPolicyTrace {
  readonly id: string
  readonly phase: ActionPolicyPhase
  readonly action: string
  readonly toolCallId?: string
  readonly decision: 'allow' | 'deny'
  readonly reason: ActionPolicyReason
  readonly requiredCapabilities: readonly string[]
  /** ISO time. */
  readonly at: string
  /** The last turn traced before the decision (a decision made during a turn is also in that turn's `TurnTrace.policy`). */
  readonly turnId?: string
}

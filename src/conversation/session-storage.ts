import type { ActionConfirmation } from '../contract/action-confirmation.js'
import { ChatrailError, markErrorClass } from '../contract/errors.js'
import type { DecisionRecord } from './decision-record.js'
import type { JsonObject } from './json.js'

/**
 * The session snapshot port (AgentsKit Chat's `storage: { load, save }`): where `session.persist()`
 * writes a session's progress and `resumeChatSession` reads it back. A thin layer for apps without
 * a `ConversationStore`: with a store, the stored history already carries every decision record
 * and a session re-derives its state from it (docs/persistence.md § Session snapshots).
 */

/**
 * One decided user message, as a resumed session needs it to replay retry and regenerate: the
 * user's text (and UI event), the answer's id and text, and the decision record the answer carried.
 */
export interface StoredDecision {
  readonly messageId: string
  readonly input: string
  readonly uiEvent?: string
  readonly answerId: string
  /** The answer's text, replayed by a retry after resume; null when the turn cannot be replayed from text (an agentic turn). */
  readonly answer: string | null
  readonly record: DecisionRecord
}

/** The `chatrail.session` v1 envelope: JSON, validated whole on read (docs/persistence.md). */
export interface SessionSnapshotEnvelope {
  readonly protocol: 'chatrail.session'
  readonly version: 1
  readonly sessionId: string
  readonly definitionId: string
  readonly definitionRevision: number
  /** ISO 8601, from the session's clock. */
  readonly updatedAt: string
  /** Incremented by every save: the compare-and-swap compares it. */
  readonly cursor: number
  readonly conversation: {
    /** The state the decisions lead to: a resume replays them and refuses a different end. */
    readonly state: string
    readonly context: JsonObject
    readonly decisions: readonly StoredDecision[]
  }
  readonly confirmations: readonly ActionConfirmation[]
}

/**
 * Where snapshots live. `save` writes `snapshot` only when the stored one's cursor is
 * `expectedCursor` (`undefined`: nothing stored yet) and returns false otherwise (another writer
 * got there first). `load` returns what was saved for the id, or undefined; it is outside input and
 * is validated whole. Either may be synchronous.
 */
export interface SessionStorage {
  load: (sessionId: string, signal?: AbortSignal) => unknown
  save: (snapshot: SessionSnapshotEnvelope, expectedCursor: number | undefined, signal?: AbortSignal) => boolean | Promise<boolean>
}

/** A save lost its compare-and-swap: another writer saved this session since it was read. */
export class SessionConflictError extends ChatrailError {
  readonly sessionId: string
  readonly expectedCursor: number | undefined

  constructor(sessionId: string, expectedCursor: number | undefined) {
    super({
      code: 'SESSION_CONFLICT',
      message: `Session "${sessionId}" was saved by another writer since cursor ${expectedCursor === undefined ? '(none)' : String(expectedCursor)}.`,
      hint: 'Resume the session again (resumeChatSession) to continue from what was saved, or give each session one writer.',
    })
    this.name = 'SessionConflictError'
    this.sessionId = sessionId
    this.expectedCursor = expectedCursor
  }
}

// pure: an app that never resumes a session drops the class with its marker
export const isSessionConflictError = /* @__PURE__ */ markErrorClass(SessionConflictError, 'SessionConflictError')

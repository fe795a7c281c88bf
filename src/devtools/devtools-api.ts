/**
 * The devtools JSON API: every endpoint's request and response shapes, shared by the server side
 * (`createDevtoolsHandler`, this folder) and the page that reads it. Types only (plus two
 * constants): importing this file costs a browser bundle nothing.
 *
 * Every route is relative to the handler's base path (default {@link DEFAULT_DEVTOOLS_BASE_PATH}).
 * Every request is authenticated as the chat is (a token's `authenticate`, or `'none'` on
 * loopback); without a principal the answer is 401. Every endpoint only reads: no request writes a
 * conversation, a lease, turn parts or a decision cache (export builds a file, it stores nothing).
 * Times are ISO 8601 strings. Every failure answers {@link DevtoolsErrorBody} with its status:
 * 400 (a bad query or body, `path` names the field), 401, 404 (no such conversation, message,
 * definition or route), 405, 500, 503 (the store is unavailable).
 */

/** Where the handler listens unless told otherwise. */
export const DEFAULT_DEVTOOLS_BASE_PATH = '/devtools/api'

/** Bumped only when a shape below changes incompatibly. */
export const DEVTOOLS_API_VERSION = 1

/** Which definition a conversation was written under. */
export interface DevtoolsDefinitionRef {
  readonly id: string
  readonly revision: number
}

/**
 * What kind of turn it was, read from its stored answer (most specific first):
 * - `pending`: no answer is stored yet (the turn is running, or its answer never got stored);
 * - `failed`: the answer ended in an error (`errorCode` says which: `AGENT_ERROR`, `TURN_TIMEOUT`, …);
 * - `replayed`: a regenerate answered from the stored decision (`replayed` in its live trace): no
 *   route callback, no model call; the record is the replayed turn's (`record.kind` says which),
 *   and `replayOf` names the answer it replays. A history stored before the marker existed shows
 *   such a turn as the kind it replays;
 * - `refused`: a route's (or a form's) re-prompt answered; nothing changed;
 * - `unavailable`: a UI event this state does not take (a stale button);
 * - `form`: the state's form took the answer as a slot (filled, completed or exhausted);
 * - `deterministic`, `repaired`, `fallback`: a route answered, traced as that kind (a route's
 *   `traceKind`), no model call;
 * - `agentic`: no decision record: the agent answered (or the definition's fallback did, or a route
 *   timed out into it, or the turn was stopped: a stored answer without a record does not say
 *   which), or the agent's proposed transition was committed (`record.kind` is `agentic`).
 */
export type DevtoolsTurnKind = 'deterministic' | 'agentic' | 'repaired' | 'fallback' | 'form' | 'refused' | 'unavailable' | 'failed' | 'replayed' | 'pending'

/**
 * A decision record's signature as the handler can judge it: `unsigned` (no `sig`), `signed` (a
 * `sig`, and the handler has no `recordKey` to check it), `verified` (checked with the handler's
 * `recordKey`), `forged` (it does not verify: a session with that key ignores the record).
 */
export type DevtoolsSignature = 'unsigned' | 'signed' | 'verified' | 'forged'

/** An API failure, the same shape the chat handler answers with. */
export interface DevtoolsErrorBody {
  readonly error: {
    readonly code: string
    readonly message: string
    /** The query parameter or body field at fault. */
    readonly path?: string
  }
}

// ---------------------------------------------------------------------------------------------
// GET /conversations?limit&cursor&state&lastKind&failed=1&revision&definition
// ---------------------------------------------------------------------------------------------

/**
 * `GET /conversations`: conversations, newest write first, one page at a time.
 * - `limit`: 1–200, default 50;
 * - `cursor`: `nextCursor` of the previous page, unchanged (another value is 400 `invalid_cursor`);
 * - `definition`: only this definition id; `revision` (with or without `definition`): only this revision;
 * - `state`: only conversations whose current state is this one;
 * - `lastKind`: only those whose last turn was of this kind ({@link DevtoolsTurnKind});
 * - `failed=1`: only those with at least one failed turn.
 * A principal sees only the conversations it owns unless the handler was made with `access: 'all'`.
 */
export type ConversationListQuery = {
  readonly limit?: number
  readonly cursor?: string
  readonly definition?: string
  readonly revision?: number
  readonly state?: string
  readonly lastKind?: DevtoolsTurnKind
  readonly failed?: boolean
}

/** One conversation of a listing. */
export interface ConversationListItem {
  readonly id: string
  readonly definition: DevtoolsDefinitionRef
  /** False when the handler has no definition with this id: `state` and the turn fields are then null/0. */
  readonly known: boolean
  /** The state the conversation is in now (its history through the handler's definition); null when unknown. */
  readonly state: string | null
  /** The kind of its last turn; null when it has none. */
  readonly lastKind: DevtoolsTurnKind | null
  readonly failedTurns: number
  readonly turnCount: number
  /**
   * True while a long conversation (over 1,000 messages) is known from its newest turns only: its
   * whole walk runs beside the requests, and a later listing has it exact. `lastKind` is exact
   * either way; `state` is then the one its last records name, and `turnCount` and `failedTurns`
   * count only those turns.
   */
  readonly partial: boolean
  readonly messageCount: number
  readonly version: number
  readonly owner?: string
  readonly createdAt: string
  readonly updatedAt: string
}

export interface ConversationListPage {
  /** Newest `updatedAt` first (ties by id, descending). */
  readonly conversations: readonly ConversationListItem[]
  /** Present when there may be more: pass it back as `cursor`. */
  readonly nextCursor?: string
}

// ---------------------------------------------------------------------------------------------
// GET /conversations/:id
// ---------------------------------------------------------------------------------------------

/** A stored message as the page shows it. */
export interface DevtoolsMessage {
  readonly id: string
  readonly role: 'user' | 'assistant' | 'system' | 'tool'
  readonly text: string
  readonly status: 'pending' | 'streaming' | 'complete' | 'error'
  readonly createdAt: string
  /** The UI event a user message carried (a button click), when it did. */
  readonly uiEvent?: string
  /** Index into `turns` of the turn this message belongs to; absent before the first user message. */
  readonly turn?: number
}

/** A call the turn made to its agentic adapter, or a tool call the answer recorded. */
export type DevtoolsAdapterCall =
  | {
      readonly type: 'model'
      /** The answer's id. */
      readonly messageId: string
      readonly status: 'complete' | 'error' | 'stopped'
      /** The error code a failed call stored. */
      readonly errorCode?: string
    }
  | {
      readonly type: 'tool'
      readonly toolCallId: string
      readonly name: string
      readonly status: string
    }

/**
 * Timings of a turn, where the store has them: `turnMs` from the message times (the user message
 * to its answer); the phases from the answer's `metadata.timings`, which chatrail/server stores
 * (its sessions record `trace.timings`): `routeMs` (route resolution), and for a turn that called
 * the agentic adapter `adapterFirstChunkMs` and `adapterMs`; `storeBeforeWriteMs`, the store time
 * the turn spent before its answer's write (load, claim, lease renewals, signal polls, part batches,
 * summed by the handler's clock). Absent in a history written without them. `storeMs` (the turn's
 * write) is on the live trace only: a stored answer cannot carry the time of its own write, so a
 * stored history never has it.
 */
export interface DevtoolsTimings {
  readonly turnMs?: number
  readonly routeMs?: number
  readonly adapterFirstChunkMs?: number
  readonly adapterMs?: number
  readonly storeMs?: number
  readonly storeBeforeWriteMs?: number
}

/** A decision record, as stored on the answer (`metadata.chatrail`; see DecisionRecord). */
export interface DevtoolsDecisionRecord {
  readonly v: 1
  readonly messageId: string
  readonly input: string
  readonly kind: 'deterministic' | 'agentic' | 'repaired' | 'fallback'
  readonly routeId?: string
  readonly event?: string
  readonly restart?: true
  readonly fromState: string
  readonly toState: string
  readonly turnId: string
  readonly outcome?: 'refused' | 'unavailable'
  readonly reason?: string
  readonly assign?: Readonly<Record<string, unknown>>
  readonly unset?: readonly string[]
  readonly sig?: string
}

/** One turn: a user message and what answered it. */
export interface DevtoolsTurn {
  readonly index: number
  readonly userMessageId: string
  /** The answer's messages (usually one assistant message). */
  readonly answerIds: readonly string[]
  readonly kind: DevtoolsTurnKind
  /** The route that answered; null when none did (the agent, a form, a stale event, a failure). */
  readonly routeId: string | null
  /** The machine event the turn fired; null when none. */
  readonly event: string | null
  /** The turn started over (a `restart` route). */
  readonly restart: boolean
  /** State before and after, as the conversation replays through the handler's definition. */
  readonly fromState: string
  readonly toState: string
  /**
   * The trace's fixed phrase (`guard-refused`, `slot-filled`, `route-timeout:<id>`, …); for a turn
   * the definition's fallback answered without a record, why: `missing-adapter`, `route-timeout`
   * or `agent-failed:<error class>`.
   */
  readonly reason?: string
  /** The failed answer's error code (`AGENT_ERROR`, `TURN_TIMEOUT`, …). */
  readonly errorCode?: string
  /** The stored decision record; null when the answer has none (a failure, a stop, an old history). */
  readonly record: DevtoolsDecisionRecord | null
  readonly signature: DevtoolsSignature
  /** The record was written for another text than the stored user message (it was edited after). */
  readonly recordStale: boolean
  /** A `replayed` turn: the id of the answer it replays (that answer was replaced by this one). */
  readonly replayOf?: string
  readonly timings: DevtoolsTimings
  readonly adapterCalls: readonly DevtoolsAdapterCall[]
  readonly startedAt: string
  /** When the answer was stored; absent when the turn has no answer yet. */
  readonly endedAt?: string
}

/**
 * `GET /conversations/:id?turns&before`: the conversation's newest `turns` turns (1–1000, default
 * 200) or, with `before` (a `page.earlier` from a previous answer), the turns before that one;
 * their messages beside them, and where they sit in {@link ConversationDetailPage}.
 */
export type ConversationDetailQuery = {
  readonly turns?: number
  readonly before?: string
}

/** Which turns a detail holds. */
export interface ConversationDetailPage {
  /**
   * False when a long conversation (over 1,000 messages) was opened before its whole history was
   * walked: the turns shown are read from its newest messages alone, their states are the ones
   * their records name, `context` is null and turn indices count from this page. The whole walk
   * runs beside the requests; the next read is exact.
   */
  readonly complete: boolean
  /** The index of the first turn shown. */
  readonly firstTurn: number
  /** How many turns the conversation has; null when not `complete`. */
  readonly turnCount: number | null
  /** Present when there are earlier turns: pass it as `before` to read them. */
  readonly earlier?: string
}

/**
 * `GET /conversations/:id`: a page of the conversation's turns (the newest by default; see
 * {@link ConversationDetailQuery}), messages and turns side by side.
 */
export interface ConversationDetail {
  readonly id: string
  readonly definition: DevtoolsDefinitionRef
  readonly known: boolean
  readonly owner?: string
  readonly version: number
  readonly createdAt: string
  readonly updatedAt: string
  /** The current state (null when `known` is false). */
  readonly state: string | null
  /** The current context (the machine's, JSON). */
  readonly context: Readonly<Record<string, unknown>> | null
  /** The states in order: the initial state, then each state a turn moved to (repeats kept, no-ops skipped). */
  readonly path: readonly string[]
  /** A turn of this conversation is running now (its lease is held). */
  readonly running: boolean
  /** The page's messages (with a first page, those before the first turn too). */
  readonly messages: readonly DevtoolsMessage[]
  readonly turns: readonly DevtoolsTurn[]
  readonly page: ConversationDetailPage
}

// ---------------------------------------------------------------------------------------------
// GET /conversations/:id/messages/:messageId/explain
// ---------------------------------------------------------------------------------------------

/** Why a route did or did not take an input (`explain.ts`'s RouteExplanation). */
export interface DevtoolsRouteExplanation {
  readonly routeId: string
  readonly matched: boolean
  readonly reason: 'state' | 'event' | 'guard' | 'no-match' | 'matched'
  readonly detail: string
  readonly shadowedBy?: string
}

/** What the turn does with the input, as the session decides it (`explain.ts`'s ExplainedTurn). */
export interface DevtoolsExplainedTurn {
  readonly kind: 'route' | 'restart' | 'refused' | 'slot-filled' | 'form-complete' | 'invalid-slot' | 'form-exhausted' | 'unavailable' | 'agent' | 'error' | 'timeout'
  readonly routeId?: string
  readonly event?: string
  readonly toState: string
  readonly outcome?: 'ok' | 'error' | 'aborted' | 'refused' | 'unavailable' | 'timeout'
  readonly reason?: string
  readonly slot?: string
  readonly detail: string
}

/** An explanation: who answers `input` in `state`, and why every route did or did not. */
export interface DevtoolsExplanation {
  readonly definition: DevtoolsDefinitionRef
  readonly state: string
  readonly input: string | { readonly uiEvent: string; readonly text?: string }
  readonly outcome: DevtoolsExplainedTurn
  readonly routes: readonly DevtoolsRouteExplanation[]
  /** The same as `chatrail explain` prints. */
  readonly text: string
}

/**
 * `GET /conversations/:id/messages/:messageId/explain` (a user message's id): the explanation
 * `session.explainTurn` gives for that message in the state (and context) the conversation was in
 * just before it, through the handler's definition, computed now. 404 for another role's message.
 */
export interface MessageExplanation extends DevtoolsExplanation {
  readonly conversationId: string
  readonly messageId: string
}

// ---------------------------------------------------------------------------------------------
// GET /definitions
// ---------------------------------------------------------------------------------------------

export interface DevtoolsRouteInfo {
  readonly id: string
  readonly kind: 'command' | 'text' | 'pattern' | 'custom' | 'event'
  readonly event?: string
  /** Absent: every state. */
  readonly states?: readonly string[]
  readonly restart: boolean
  readonly description?: string
  /** What it matches, in words (`/start`, `"hi" | "hello"`, `/\d+/`, `UI event "express"`, `a function`). */
  readonly matches: string
}

export interface DevtoolsStateInfo {
  readonly name: string
  readonly initial: boolean
  readonly final: boolean
  readonly description?: string
  /** Events it takes: its own, then the conversation-level ones it inherits. */
  readonly events: readonly string[]
  /** Routes that can fire here (their `states` allow it, and their event, if any, is declared here). */
  readonly routes: readonly string[]
  readonly actions: readonly string[]
  /** The slots of its form, in order. */
  readonly formSlots?: readonly string[]
}

export interface DevtoolsTransition {
  readonly from: string
  readonly event: string
  readonly to: string
  readonly guarded: boolean
  /** Inherited from the conversation-level `on`. */
  readonly inherited: boolean
}

export interface DevtoolsDefinition extends DevtoolsDefinitionRef {
  readonly initial: string
  readonly states: readonly DevtoolsStateInfo[]
  readonly transitions: readonly DevtoolsTransition[]
  readonly routes: readonly DevtoolsRouteInfo[]
  /** `toMermaid(definition)`: a `stateDiagram-v2`. */
  readonly mermaid: string
}

/** `GET /definitions`: every definition the handler was given, in the order given. */
export interface DefinitionList {
  readonly definitions: readonly DevtoolsDefinition[]
}

// ---------------------------------------------------------------------------------------------
// POST /what-if
// ---------------------------------------------------------------------------------------------

/**
 * `POST /what-if` (JSON body): which route would answer `text` (or the UI event) in `state` and
 * why, computed on the definition alone: nothing stored is read or written. `definition` is an id
 * the handler knows (404 otherwise); `state` one of its states (400 otherwise, with a "did you
 * mean"); exactly one of `text` and `uiEvent`; `context` defaults to the definition's.
 */
export interface WhatIfRequest {
  readonly definition: string
  readonly state: string
  readonly text?: string
  readonly uiEvent?: string
  readonly context?: Readonly<Record<string, unknown>>
}

/** The answer to `POST /what-if`. */
export type WhatIfResponse = DevtoolsExplanation

// ---------------------------------------------------------------------------------------------
// GET /conversations/:id/export?redact=1
// ---------------------------------------------------------------------------------------------

/**
 * `GET /conversations/:id/export`: the conversation as a `.conv.yaml` file of the testing kit
 * (`text/yaml`, `content-disposition: attachment; filename="<id>.conv.yaml"`), one `user:` /
 * `event:` step per turn with the route, kind, outcome, state and reply that today's definition
 * gives, agentic answers as the file's scripted `agent:` replies. It passes `chatrail test`
 * against the definition module named by the handler's `exportModule` option.
 * `redact=1`: every user text is replaced by a placeholder the turn decides the same way on
 * (the route's own command or text, a same-shaped mask, or `[redacted N]` for the agent), and
 * agent replies by `[redacted agent reply N]`; a text no placeholder could stand in for is kept and
 * listed in the file's header comment and in `x-chatrail-redaction-kept` (turn numbers).
 * `format=json` answers {@link ConversationExport} instead.
 */
export interface ConversationExport {
  readonly conversationId: string
  readonly fileName: string
  readonly yaml: string
  readonly redacted: boolean
  /** 1-based turns whose user text was kept under `redact=1` (no placeholder decided the same way). */
  readonly keptTurns: readonly number[]
  /** Turns whose stored decision differs from today's definition's (the file asserts today's). */
  readonly changedTurns: readonly number[]
}

// ---------------------------------------------------------------------------------------------
// GET /events
// ---------------------------------------------------------------------------------------------

/**
 * `GET /events`: server-sent events of conversation writes, from any instance (the handler polls
 * the store's listing by write time). Events:
 * - `ready` ({@link DevtoolsReadyEvent}) once, first;
 * - `conversation` ({@link ConversationChangedEvent}) per conversation written since (the same
 *   access rule as the listing);
 * - a comment line as a heartbeat every 15 s.
 * The stream ends when the client goes away, when the handler closes, or after `maxMs` (default
 * 5 minutes; `EventSource` reconnects by itself). `retry:` is set to the poll interval.
 */
export interface DevtoolsReadyEvent {
  readonly now: string
  readonly pollMs: number
}

export interface ConversationChangedEvent {
  readonly id: string
  readonly definition: DevtoolsDefinitionRef
  readonly version: number
  readonly messageCount: number
  readonly updatedAt: string
}

import type { AdapterFactory } from '../contract/adapter.js'
import type { ChatConfig } from '../contract/chat.js'
import { ChatrailError } from '../contract/errors.js'
import type { Message } from '../contract/message.js'
import type { AgentSnapshot } from '../contract/agent-snapshot.js'
import type { DialogAnswerInput, DialogAnswerResult } from '../contract/dialog.js'
import { isLiveAgentAdapter } from '../contract/live-agent-adapter.js'
import { unwrapAdapter, wrapAdapter } from './adapter-wrapper.js'
import { ChatrailConfigError, configIssue } from './config-error.js'
import { formatConfigIssues } from './config-issues-format.js'
import { createTimeline } from './decisions.js'
import { defineChat, isDefinedChat } from './define-chat.js'
import type { ChatConfigInput, ChatDefinition, ChatDefinitionInput, ChatNames, CheckedName, TraceObserver } from './definition.js'
import { suggestName } from './did-you-mean.js'
import { identifierHint, isIdentifier } from './identifier.js'
import { assignContext, compileMachine, type Machine, type MachineState } from './machine.js'
import type { JsonObject } from './json.js'
import { lintDefinition } from './lint.js'
import { buildRouteIndex, type RouteIndex } from './route-index.js'
import { projectSnapshot, type SessionSnapshot } from './snapshot.js'
import { notifyTraceListeners, timingsOf, type TurnTrace } from './trace.js'
import { createTraceLog, type RecordCounts } from './trace-log.js'
import type { SessionCore } from './session-core.js'
import type { Explanation, ExplainInput, RouteExplanation } from './explain.js'
import { createTurnSource } from './turn.js'
import { explainDecider } from './explain-decider.js'
import { createRecordSigner, isRecordKey, signedTurnSource, type RecordKey } from './record-signing.js'
import { rederiveFromText } from './rederive-turn.js'
import { randomUUID } from '../contract/random-uuid.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import type { ActionPolicy, CapabilityRequirements, ContextReader } from './capability-policy.js'
import { sessionActions, type PolicyOptions, type SessionConfirmationOptions } from './session-actions.js'
import type { SessionStorage } from './session-storage.js'
import { registerPersistence, reportPersistError, sessionPersistence, withoutStorage } from './session-persistence.js'

/**
 * A session: one conversation's progress over one shared, immutable definition (seed 004). It
 * never owns history: the controller does; the session derives its state from the history it
 * is handed (each turn's request, and `sync`), so state always follows history.
 */

export interface ChatSessionOptions<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  /** Identifier-safe; default a random UUID. */
  sessionId?: string
  /** Turn id factory (default `<sessionId>:<n>`). */
  ids?: () => string
  /** Clock for trace times and durations (default `new Date()`). */
  clock?: () => Date
  /**
   * Record where each turn's time went in its trace (`trace.timings`: route resolution, the agentic
   * adapter's first chunk and total), from `clock`. Default false: a few clock reads a turn that
   * most sessions do not need (chatrail/server's sessions turn it on and store them with the answer).
   */
  timings?: boolean
  /** Called for every trace of this session; failures are ignored. */
  onTrace?: TraceObserver
  /** How many traces `traces()` keeps (oldest dropped first). Default 1000. */
  maxTraces?: number
  /** Print `lintDefinition` warnings (once per definition; never when NODE_ENV is production or there is no `process`). Default true. */
  lint?: boolean
  /** Start somewhere other than `initial` (a test fixture, a resumed workflow). */
  start?: { state?: N['state']; context?: Partial<Ctx> }
  /**
   * Sign decision records (HMAC-SHA-256) and adopt from history only records that verify: a client
   * editing `metadata.chatrail` can no longer set the context. A string or bytes of at least 16
   * bytes, or an HMAC `CryptoKey`. See docs/persistence.md § Signing.
   */
  recordKey?: RecordKey
  /**
   * Where `persist()` saves the session's snapshot (compare-and-swap on its cursor); with it, every
   * finished turn and every confirmation change is saved too. See docs/persistence.md § Session snapshots.
   */
  storage?: SessionStorage
  /** The default signal for storage calls. */
  signal?: AbortSignal
  /** A background save (after a turn) failed, e.g. `SessionConflictError`. Default: printed with `console.error`. */
  onPersistError?: (error: unknown) => void
  /**
   * The session's own confirmation coordinator (`session.confirmations`), handed to every route
   * callback as `ctx.confirmations`: a route proposes there and the record lives where approval
   * cards and the server decide it. With `storage` (and no `ledger`), its records are saved with the
   * session's snapshot. chatrail/server's sessions get one over the handler's store when it serves
   * confirmations. See docs/actions.md.
   */
  confirmations?: SessionConfirmationOptions
}

/** `N`: the definition's names (`ChatNames`), so `getSnapshot().state` is the union of its states. */
export interface ChatSession<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames> {
  readonly sessionId: string
  readonly definition: ChatDefinition<Ctx, N>
  /** The definition's `ChatConfig` with only `adapter` wrapped; the same object until `updateChat`. */
  readonly chat: ChatConfig
  /** Re-derives `chat` from a new config (same progress); a wrapped adapter is unwrapped, never nested. */
  updateChat: (chat: ChatConfig | ChatConfigInput) => ChatConfig
  getSnapshot: () => SessionSnapshot<Ctx, N>
  subscribe: (listener: () => void) => () => void
  /**
   * Reconciles with a history changed without a turn (edit without regenerate, setMessages, clear).
   * `trusted`: the host vouches for the records in `messages` (history from its own store), so a
   * session with a `recordKey` adopts them unsigned too; implies `full`.
   */
  sync: (messages: readonly Message[], options?: { full?: boolean; trusted?: boolean }) => void
  traces: () => readonly TurnTrace[]
  /** Every route in order, for `input` in the current state: matched, or why not (docs/conversation.md § Explain). Runs guards and `match` callbacks. */
  explain: (input: ExplainInput) => Promise<RouteExplanation[]>
  /**
   * What a turn with `input` would do now (a route, a re-prompt, a restart, a form slot, a stale UI
   * event, the agent), decided by the session's own decision code, and the routes as `explain` gives them.
   */
  explainTurn: (input: ExplainInput) => Promise<Explanation>
  /** Answers the live agent's pending dialog; throws `ChatrailError` `NO_PENDING_DIALOG` when there is none. */
  answerDialog: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
  /**
   * A capability policy bound to this session: the context's `sessionId` must be this session's,
   * `getContext` is read again at every check (propose, execute, a gated route), and an action the
   * current state does not list in `actions` is refused (when the definition declares any). Its
   * decisions go into the next turn's trace (`TurnTrace.policy`). See docs/actions.md.
   */
  withPolicy: (requirements: CapabilityRequirements, getContext: ContextReader, options?: PolicyOptions) => ActionPolicy
  /** A confirmation coordinator for this session's id (AgentsKit Chat's `session.createConfirmation`). See docs/actions.md. */
  createConfirmation: (options: SessionConfirmationOptions) => ActionConfirmationCoordinator
  /** The coordinator made from the option `confirmations` (routes get it as `ctx.confirmations`); undefined without it. */
  readonly confirmations: ActionConfirmationCoordinator | undefined
  /**
   * Saves the session's snapshot to its `storage` now (after any save in flight). Rejects with
   * `SessionConflictError` when another writer saved it first, `ChatrailConfigError` without storage.
   */
  persist: (signal?: AbortSignal) => Promise<void>
  /** The stored snapshot's cursor this session last read or wrote; 0 before its first save. */
  getCursor: () => number
  dispose: () => void
}

// Web Crypto's global (Node >= 19 and browsers), not node:crypto: sessions also run in browsers (chatrail/react).

interface Compiled<Ctx extends JsonObject> {
  machine: Machine<Ctx>
  index: RouteIndex<Ctx>
}

const compiledCache = new WeakMap<object, Compiled<JsonObject>>()
const linted = new WeakSet<object>()

function compile<Ctx extends JsonObject>(definition: ChatDefinition<Ctx>): Compiled<Ctx> {
  let compiled = compiledCache.get(definition) as Compiled<Ctx> | undefined
  if (!compiled) {
    compiled = { machine: compileMachine(definition.conversation), index: buildRouteIndex(definition.conversation.routes) }
    compiledCache.set(definition, compiled as unknown as Compiled<JsonObject>)
  }
  return compiled
}

function startState<Ctx extends JsonObject>(machine: Machine<Ctx>, start: ChatSessionOptions<Ctx>['start']): MachineState<Ctx> {
  if (!start) return machine.initial
  const state = start.state ?? machine.initial.state
  if (!machine.states.has(state)) {
    throw new ChatrailConfigError([configIssue('unknown_start_state', ['start', 'state'], `Start state ${JSON.stringify(state)} is not declared.`, suggestName(state, [...machine.states.keys()], 'state'))])
  }
  const context = assignContext(machine.initial.context, start.context)
  if (!context) throw new ChatrailConfigError([configIssue('context_not_json', ['start', 'context'], 'The start context must be JSON.', 'Use strings, numbers, booleans, null, arrays and plain objects.')])
  return Object.freeze({ state, context })
}

function printLint(definition: ChatDefinition<JsonObject>): void {
  if (linted.has(definition)) return
  linted.add(definition)
  const warnings = lintDefinition(definition)
  if (warnings.length > 0) console.warn(`chatrail: definition "${definition.id}" has ${warnings.length} warning(s):\n${formatConfigIssues(warnings, '⚠')}`)
}

/**
 * Creates a session over `definition` (a `defineChat` result; a plain definition object goes
 * through `defineChat` first, so it is fully validated in development only). Throws
 * `ChatrailConfigError` for an invalid definition, session id or start.
 */
// One signature (not an overload per input kind): a misspelt `start.state` is then reported at the
// name, not as "no overload matches". A plain definition object gets `string` names.
export function createChatSession<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames, const Start extends string = N['state']>(
  definition: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>,
  options?: Omit<ChatSessionOptions<Ctx, N>, 'start'> & { start?: { state?: CheckedName<Start, N['state']>; context?: Partial<Ctx> } },
): ChatSession<Ctx, N>
export function createChatSession<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames>(
  definitionInput: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>,
  options: ChatSessionOptions<Ctx, N> = {},
): ChatSession<Ctx, N> {
  // Inside, names are plain strings (the machine's); `N` is the caller's view (see `getSnapshot`).
  const definition = isDefinedChat(definitionInput) ? (definitionInput as ChatDefinition<Ctx>) : defineChat(definitionInput as ChatDefinitionInput<Ctx>)
  const sessionId = options.sessionId ?? randomUUID()
  if (!isIdentifier(sessionId)) {
    throw new ChatrailConfigError([configIssue('invalid_identifier', ['sessionId'], `Session id ${JSON.stringify(sessionId)} is not identifier-safe.`, identifierHint(sessionId))])
  }
  // Development only, written so bundlers drop the lint pass: `define` turns the NODE_ENV test into
  // `false` and the minifier removes the call (and with it `lintDefinition`, unless the app imports
  // it). `typeof process` keeps plain browsers (no `process`, no bundler) from a ReferenceError.
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && options.lint !== false) {
    printLint(definition as unknown as ChatDefinition<JsonObject>)
  }
  const { machine, index } = compile(definition)
  if (options.recordKey !== undefined && !isRecordKey(options.recordKey)) {
    throw new ChatrailConfigError([configIssue('invalid_record_key', ['recordKey'], 'recordKey must be a secret of at least 16 bytes (a string or Uint8Array) or an HMAC CryptoKey.', 'Use a random secret from your configuration, e.g. 32 random bytes in base64.')])
  }
  const signer = options.recordKey === undefined ? undefined : createRecordSigner(options.recordKey)
  // Untrusted-record counts waiting for their turn's trace, by the turn's user message id.
  const untrusted = new Map<string, number>()
  // Turns re-derived from their text since the last trace (their records were not trusted).
  let rederived = 0
  const rederive = signer && rederiveFromText(machine, index, sessionId, () => void (rederived += 1), definition.conversation)
  // Turn ids default to `<sessionId>:<n>`: unique (the session id is), and cheaper than a UUID per
  // turn; the timeline then keeps a committed turn's `n`, not its id (issue 20's memory figure).
  const turnPrefix = `${sessionId}:`
  const turnId = (turn: number): string => turnPrefix + turn
  const timeline = createTimeline(machine, index, startState(machine, options.start), signer?.trusted, rederive, options.ids ? undefined : turnPrefix)
  const maxTraces = options.maxTraces ?? 1000
  if (!(maxTraces === Infinity || (Number.isInteger(maxTraces) && maxTraces >= 0))) {
    throw new ChatrailConfigError([configIssue('invalid_max_traces', ['maxTraces'], `maxTraces ${String(maxTraces)} is not a number of traces.`, 'Use a whole number ≥ 0 (0 keeps none), or Infinity.')])
  }
  const log = createTraceLog(maxTraces, sessionId, turnId)
  const traceListeners = [definition.conversation.onTrace, options.onTrace].filter((listener) => listener !== undefined)
  const listeners = new Set<() => void>()
  let turns = 0
  const ids = options.ids
  // A custom id stays as given, even from a factory that returns a number (a JavaScript caller).
  const newTurn = ids ? (): string => String(ids()) : (): number => ++turns
  const clock = options.clock
  const now = clock ? () => clock().getTime() : Date.now
  const actions = sessionActions({ sessionId, states: machine.states, state: () => timeline.current().state, lastTurnId: () => log.latest()?.turnId, now })
  let original: AdapterFactory | undefined
  let chat: ChatConfig
  let disposed = false
  // set once persistence exists (its ledger keeps the records); the core reads it from then on
  let confirmations: ActionConfirmationCoordinator | undefined = undefined
  let unsubscribeAgent: (() => void) | undefined
  let snapshot: SessionSnapshot<Ctx> | undefined

  // The live agent's run state, when the adapter is a live agent adapter (Claude Code, Codex).
  const agentRunState = () => (original && isLiveAgentAdapter(original) ? original.agentRunState : undefined)
  const agentSnapshot = (): AgentSnapshot | undefined => agentRunState()?.getSnapshot()

  function changed(): void {
    const next = projectSnapshot(machine, timeline.current(), agentSnapshot(), snapshot, index.restartEvent)
    if (next === snapshot) return
    snapshot = next
    if (disposed) return
    for (const listener of [...listeners]) {
      try {
        listener()
      } catch {
        // A subscriber's failure never affects a dispatch or the other subscribers.
      }
    }
  }

  const core: SessionCore<Ctx> = {
    sessionId,
    definition,
    machine,
    index,
    timeline,
    adapter: () => original,
    newTurn,
    turnId,
    now,
    timings: options.timings === true,
    trace(turn) {
      let counts: RecordCounts | undefined
      if (untrusted.size > 0 && turn.messageId !== undefined) {
        const ignored = untrusted.get(turn.messageId)
        if (ignored !== undefined) {
          counts = { untrustedRecords: ignored }
          untrusted.delete(turn.messageId)
        }
      }
      if (rederived > 0) {
        counts = { ...counts, rederivedTurns: rederived }
        rederived = 0
      }
      const policy = actions.takePolicyTrace()
      if (policy) counts = { ...counts, policy }
      const endedAt = now()
      const timings = turn.timing && timingsOf(turn.timing, turn.startedAt, endedAt)
      if (timings) counts = { ...counts, timings: Object.freeze(timings) }
      log.add(turn, Math.max(0, endedAt - turn.startedAt), counts)
      const latest = !disposed && traceListeners.length > 0 ? log.latest() : undefined
      if (latest) notifyTraceListeners(traceListeners, latest)
      persistence?.schedule()
    },
    changed,
    disposed: () => disposed,
    get confirmations() {
      return confirmations
    },
  }

  function adopt(config: ChatConfig | ChatConfigInput): ChatConfig {
    const next = unwrapAdapter(config.adapter)
    if (next !== original || unsubscribeAgent === undefined) {
      unsubscribeAgent?.()
      unsubscribeAgent = undefined
      original = next
      if (!disposed) unsubscribeAgent = agentRunState()?.subscribe(changed)
    }
    chat = {
      ...config,
      adapter: wrapAdapter(original, (request) => {
        const source = createTurnSource(core, request)
        if (!signer) return source
        return signedTurnSource(signer, request, source, ({ untrusted: count, verified }, history, last) => {
          if (last !== undefined && count > 0) untrusted.set(last, count)
          // Records verified only now may belong to turns an earlier sync left undecided or re-derived.
          if (verified > 0 && timeline.reconcile(history, true)) changed()
        })
      }),
    }
    changed()
    return chat
  }
  chat = adopt(definition.chat)
  const storage = options.storage
  // A resume adopts its stored history through the session's own `sync` (called after construction).
  const persistence = storage && sessionPersistence(
    { core: core as unknown as SessionCore<JsonObject>, storage, clock: clock ?? (() => new Date()), signal: options.signal, sync: (messages) => session.sync(messages, { trusted: true }) },
    options.onPersistError ?? reportPersistError(sessionId),
  )
  const createConfirmation = persistence ? (confirmationOptions: SessionConfirmationOptions) => actions.createConfirmation({ ledger: persistence.ledger, ...confirmationOptions }) : actions.createConfirmation
  confirmations = options.confirmations && createConfirmation(options.confirmations)

  const session: ChatSession<Ctx, N> = {
    sessionId,
    definition: definition as ChatDefinition<Ctx, N>,
    get chat() {
      return chat
    },
    updateChat: adopt,
    // The machine holds names as strings; defineChat validated them against the definition's, which `N` records.
    getSnapshot: () => (snapshot ?? projectSnapshot(machine, timeline.current(), agentSnapshot(), undefined, index.restartEvent)) as SessionSnapshot<Ctx, N>,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    sync(messages, syncOptions) {
      if (syncOptions?.trusted === true) signer?.vouch(messages)
      if (timeline.reconcile(messages, syncOptions?.full === true || syncOptions?.trusted === true)) changed()
    },
    traces: () => log.list(),
    explain: (input) => import('./explain.js').then((explain) => explain.explainRoutes(definition, timeline.current(), input, explainDecider)),
    // The session's own decision code, handed in: the explanation is what a turn would decide.
    explainTurn: (input) => import('./explain.js').then((explain) => explain.explainTurn(definition, timeline.current(), input, explainDecider)),
    async answerDialog(toolId, answer) {
      const source = agentRunState()
      const pending = source?.getSnapshot()?.pendingDialog
      // delivered at once, as before; only the refusal's words wait for their module
      if (source?.answerDialog && pending && pending.toolId === toolId) return source.answerDialog(toolId, answer)
      throw (await import('./no-pending-dialog.js')).noPendingDialog(pending, toolId, ChatrailError)
    },
    withPolicy: actions.withPolicy,
    // with storage, the session's confirmation records are saved with its snapshot
    createConfirmation,
    confirmations,
    persist: persistence ? persistence.persist : () => withoutStorage(sessionId),
    getCursor: () => persistence?.cursor() ?? 0,
    dispose() {
      disposed = true
      confirmations?.dispose()
      unsubscribeAgent?.()
      unsubscribeAgent = undefined
      listeners.clear()
    },
  }
  if (persistence) registerPersistence(session, persistence)
  return session
}

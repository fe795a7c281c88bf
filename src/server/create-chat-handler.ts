import { isLiveAgentAdapter } from '../contract/live-agent-adapter.js'
import type { Message } from '../contract/message.js'
import { defineChat } from '../conversation/define-chat.js'
import { assertValidDefinition } from '../conversation/definition-check.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { JsonObject } from '../conversation/json.js'
import { createChatSession, type ChatSession, type ChatSessionOptions } from '../conversation/session.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import type { ConversationStamp, ConversationStore, StoredConversation } from '../store/conversation-store.js'
import { rederive } from '../store/rederive.js'
import { isDefinitionMismatchError, isOwnerMismatchError, isStoreConflictError, isStoreLeaseError, isStoreUnavailableError } from '../store/store-errors.js'
import { reportAgentFailures } from './agent-failures.js'
import { checkBeforeTurn, type BeforeTurn } from './before-turn.js'
import { createBusyRetry } from './busy-retry.js'
import { isControlBody, readControlRequest, type ControlRequest } from './control-request.js'
import { answerConfirmation, isConfirmationBody, sessionConfirmations, type ConfirmationEndpointOptions } from './confirmation-request.js'
import { createCorsPolicy, type CorsOptions } from './cors.js'
import { createHistoryCache } from './history-cache.js'
import { badRequest, errorResponse, HttpError, jsonResponse, streamResponse } from './http-responses.js'
import { createPartStream } from './part-stream.js'
import { planTurn, type TurnPlan } from './plan-turn.js'
import { readJsonBody } from './read-json-body.js'
import { replayableAnswer, replayStoredAnswer } from './replay-answer.js'
import { runTurn, snapshotData, withVersionPositions, type TurnInput } from './run-turn.js'
import { createTurnDrain, shuttingDown, type DrainTicket } from './shutdown.js'
import { storedAnswerStream } from './stored-answer.js'
import { encodeDialogSignal } from './turn-signals.js'
import { readTurnRequest, type TurnRequest } from './turn-request.js'
import { toUiMessages } from './ui-messages.js'
import { resumeConversationIdOf, resumeStream, type ResumeContext } from './resume-stream.js'
import { runningTurnHeader, runningTurnOf, withRunningTurn } from './running-turn.js'
import { recordTurnParts } from './turn-recorder.js'
import { meterStore } from './store-meter.js'
import { createHandlerTelemetry, type ChatTelemetryOptions } from './telemetry/handler-telemetry.js'
import { serverTools, type ServerToolOptions } from './server-tools.js'
import { planApproval, readToolApproval, storeApprovalAnswers, type ToolApprovalRequest } from './tool-approval.js'
import { decidedApprovals } from './approval-continuation.js'
import { approvedTools, proposeToolApprovals, recordsForApproval, settleThroughRecords, type ToolConfirmationContext } from './tool-confirmations.js'
import { isVersionSwitchBody, readVersionSwitch, switchVersion, type VersionSwitchContext } from './version-switch.js'

/**
 * `createChatHandler`: a chatrail workflow behind one Web-standard handler that `useChat` talks
 * to unchanged (the AI SDK UI message stream). Stateless between requests: every turn loads the
 * conversation from the store, holds its lease while it runs, and stores its outcome in one
 * fenced write, so any number of instances can serve one Postgres.
 */

/**
 * Who is asking: a principal id, or null/undefined for "not authenticated" (401). A conversation
 * belongs to the principal whose turn created it; another principal gets 404 for it.
 */
export type Authenticate = (request: Request) => string | null | undefined | Promise<string | null | undefined>

export interface ChatHandlerLimits {
  /** The largest request body accepted (413 above it). Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** How long a turn's lease lasts; renewed every third of it while the turn streams. Default 30 s. */
  readonly leaseMs?: number
  /** How long a turn may run before it ends with a `TURN_TIMEOUT` error part (stored as failed, lease released). Default 5 min. */
  readonly turnTimeoutMs?: number
  /**
   * How often a running turn polls the store for a stop or a dialog answer sent to any instance.
   * Default 500 ms. A store with `subscribe` (all three of chatrail's) wakes the turn as soon as one
   * is stored, so this is the fallback for a lost wake and for a lease taken over.
   */
  readonly signalPollMs?: number
  /**
   * How often a resumed stream (`GET <api>/<id>/stream`) polls the store for the running turn's next
   * parts. Default 50 ms. With a store that wakes it on every recorded batch (`subscribe`) the poll
   * is a fallback, at least 500 ms apart.
   */
  readonly resumePollMs?: number
  /** How long a running turn's parts wait before they are written to the store as one batch, for resuming. Default 50 ms. */
  readonly partFlushMs?: number
}

export interface ChatHandlerOptions<Ctx extends JsonObject = JsonObject> {
  readonly definition: ChatDefinition<Ctx>
  readonly store: ConversationStore
  /** Required: a function, or `'none'` to serve without authentication (a local tool, a test). */
  readonly authenticate: Authenticate | 'none'
  readonly limits?: ChatHandlerLimits
  /** Session options (`recordKey`, `onTrace`, `clock`); `sessionId` is the conversation id. */
  readonly session?: Omit<ChatSessionOptions<Ctx>, 'sessionId' | 'start'>
  /** Assistant message and turn ids. Default: a random UUID per handler plus a counter. */
  readonly ids?: () => string
  /** Milliseconds since the epoch, for message times and Retry-After. Default `Date.now`. */
  readonly clock?: () => number
  /** Where internal errors go (responses carry codes only), including every failure of the agent (a provider's error, a rejected model call), also one the definition's fallback answered. */
  readonly onError?: (error: unknown) => void
  /** Cross-origin use: the origins allowed, credentials, the preflight (cors.ts). Default: no CORS headers (same-origin only). */
  readonly cors?: CorsOptions
  /** The app's say before each turn runs: refuse it with 429 + `Retry-After` (a rate limit) or 403 (a quota) (before-turn.ts). */
  readonly beforeTurn?: BeforeTurn
  /** Actions a client approves or rejects through this handler (confirmation-request.ts, docs/actions.md). */
  readonly confirmations?: ConfirmationEndpointOptions
  /**
   * OpenTelemetry spans and metrics (telemetry/handler-telemetry.ts, docs/server.md § Telemetry).
   * Default: on when `@opentelemetry/api` is installed, through its global tracer and meter; `false`: off.
   */
  readonly telemetry?: ChatTelemetryOptions | false
  /**
   * The tool loop for the tools the definition declares (`chat.tools`; docs/server.md § Tools): the
   * most model steps of one turn and each call's timeout. Used only when the definition has tools.
   */
  readonly tools?: ServerToolOptions
}

/**
 * The handler: a `Request → Response` function (mount it as a Next.js route, in Hono, Bun, Deno, or
 * `toNodeHandler` it), plus its shutdown.
 */
export interface ChatHandler {
  (request: Request): Promise<Response>
  /**
   * Graceful shutdown (shutdown.ts): stops taking turns (`503 shutting_down`, `Retry-After`), lets
   * running turns finish until `deadlineMs` (default 10 s), then ends those still running as failed
   * (`SERVER_SHUTDOWN`, stored, lease released). Resolves when no turn is left; after that every
   * request is 503. It does not close the store: close it after this resolves.
   */
  close: (options?: { readonly deadlineMs?: number }) => Promise<void>
  /** True once `close()` was called (a readiness check answers 503 then). */
  readonly closing: boolean
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
const DEFAULT_LEASE_MS = 30_000
const DEFAULT_TURN_TIMEOUT_MS = 5 * 60_000
const DEFAULT_SIGNAL_POLL_MS = 500
const DEFAULT_CLOSE_DEADLINE_MS = 10_000
const DEFAULT_RESUME_POLL_MS = 50
const DEFAULT_PART_FLUSH_MS = 50
/** Conversations whose derived history and state one handler keeps, and their stored messages in all (see history-cache.ts). */
const CACHED_CONVERSATIONS = 256
const CACHED_MESSAGES = 50_000


/** The conversation as this server sees it: the stored row, and its history under this revision. */
interface Opened {
  readonly stored: StoredConversation | undefined
  /** The stored history, re-derived through this revision when it was stored under another. */
  readonly messages: readonly Message[]
  /** True when `messages` were re-derived and not yet written back. */
  readonly rederived: boolean
  /** The cache entry `messages` came from, when they were re-derived. */
  readonly derived?: Derived
}

/** Where a conversation stands: what GET and a stored answer report, without a live agent's run state. */
type StateView = Pick<ChatrailPartData, 'state' | 'events' | 'actions' | 'restart'>

/** What this handler derived from one stored history, cached for the next request on the same history. */
interface Derived {
  /** The history under this revision: the stored one, or re-derived from it. */
  readonly messages: readonly Message[]
  /** Where the conversation stands after `messages`, once a request needed it. */
  view?: StateView
}

export function createChatHandler<Ctx extends JsonObject>(options: ChatHandlerOptions<Ctx>): ChatHandler {
  const { definition } = options
  // whatever NODE_ENV: a production `defineChat` skips the full check (issue 32), a server never does
  assertValidDefinition(definition)
  if (options.authenticate !== 'none' && typeof options.authenticate !== 'function') {
    throw new TypeError("createChatHandler: pass `authenticate` (a function returning the principal, or null for 401) or `authenticate: 'none'` to serve without authentication.")
  }
  const authenticate = options.authenticate
  const maxBodyBytes = positive(options.limits?.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'limits.maxBodyBytes')
  const leaseMs = positive(options.limits?.leaseMs, DEFAULT_LEASE_MS, 'limits.leaseMs')
  const turnTimeoutMs = positive(options.limits?.turnTimeoutMs, DEFAULT_TURN_TIMEOUT_MS, 'limits.turnTimeoutMs')
  const signalPollMs = positive(options.limits?.signalPollMs, DEFAULT_SIGNAL_POLL_MS, 'limits.signalPollMs')
  const resumePollMs = positive(options.limits?.resumePollMs, DEFAULT_RESUME_POLL_MS, 'limits.resumePollMs')
  const partFlushMs = positive(options.limits?.partFlushMs, DEFAULT_PART_FLUSH_MS, 'limits.partFlushMs')
  const ids = options.ids ?? uniqueIds()
  const clock = options.clock ?? Date.now
  const now = (): Date => new Date(clock())
  const onError = (error: unknown): void => {
    try {
      options.onError?.(error)
    } catch {
      // an observer that throws must not change a response
    }
  }
  const telemetry = createHandlerTelemetry(options.telemetry, onError)
  // every store operation and agent call the handler makes is traced (a pass-through while telemetry is off)
  const store = telemetry.store(options.store)
  const ref = { id: definition.id, revision: definition.revision }
  // timings: stored with each answer (run-turn.ts) for the devtools; `session: { timings: false }` turns them off
  const sessionOptions = { lint: false, timings: true, ...options.session }
  const liveAgent = definition.chat.adapter !== undefined && isLiveAgentAdapter(definition.chat.adapter)
  // the agent as sessions get it: its failures reach onError even when the fallback answers them
  const adapter = definition.chat.adapter
  const served = adapter === undefined ? definition : defineChat<Ctx>({ ...definition, chat: { ...definition.chat, adapter: telemetry.adapter(reportAgentFailures(adapter, onError)) } })
  const cors = options.cors === undefined ? undefined : createCorsPolicy(options.cors)
  const drain = createTurnDrain(store, onError)
  const busyRetry = createBusyRetry()
  const tools = serverTools(definition.chat, options.tools)
  // with confirmations served, a model's calls that need approval are confirmation records too (tool-confirmations.ts)
  const toolConfirmations: ToolConfirmationContext | undefined =
    options.confirmations && tools && approvedTools(tools).size > 0 && store.saveConfirmation && store.loadConfirmation && store.listConfirmations
      ? { store, tools, ttlMs: options.confirmations.ttlMs, claimMs: options.confirmations.claimMs, policy: options.confirmations.policy, clock }
      : undefined

  /**
   * A session on a stored history. A turn's session names its turn after the answer it writes
   * (`<conversationId>:<assistantId>`): each request builds a new session, whose own count would
   * make every turn of a conversation `<id>:1`. An app's own `session.ids` wins.
   */
  const openSession = (conversationId: string, messages: readonly Message[], turnId?: string, owner?: string): ChatSession<Ctx> => {
    const turnIds = turnId === undefined || sessionOptions.ids !== undefined ? {} : { ids: () => turnId }
    // a turn's routes propose through the conversation's coordinator over the store (ctx.confirmations)
    const confirmations = turnId === undefined ? undefined : sessionConfirmations({ store, options: options.confirmations, clock, tools }, conversationId, owner)
    const session = createChatSession(served, { ...sessionOptions, ...turnIds, ...(confirmations ? { confirmations } : {}), sessionId: conversationId })
    session.sync(messages, { trusted: true })
    return session
  }

  // Derived histories and states, per conversation, reused only for the very history they came from.
  const derivedCache = createHistoryCache<Derived>(CACHED_CONVERSATIONS, CACHED_MESSAGES)

  /**
   * Loads a conversation for a principal. Another principal's conversation is 404, exactly like
   * one that does not exist would be for a stop or a dialog answer (never 403: the id's owner is
   * nobody else's business). `owner` undefined is `authenticate: 'none'`: one anonymous principal
   * whose conversations are all of them. A conversation stored under another revision of the
   * definition is re-derived through this one (in memory, once per stored history; a turn writes it
   * back under its lease), unless `history` is false (DELETE and control requests only need the
   * owner check, and a turn's first read only needs a history it can plan on without re-deriving).
   */
  const open = async (conversationId: string, owner: string | undefined, history = true, via: ConversationStore = store): Promise<Opened> => {
    const stored = await via.load(conversationId)
    if (!stored) return { stored, messages: [], rederived: false }
    if (owner !== undefined && stored.owner !== owner) throw notFound()
    if (stored.definition.id !== definition.id) throw new HttpError(409, 'definition_mismatch', 'This conversation belongs to another chat definition.')
    return history ? withHistory(conversationId, stored) : { stored, messages: stored.messages, rederived: false }
  }

  /** The opened conversation's history under this revision (re-derived, or from the cache, when stored under another). */
  const withHistory = async (conversationId: string, stored: StoredConversation | undefined): Promise<Opened> => {
    if (!stored || stored.definition.revision === definition.revision) return { stored, messages: stored?.messages ?? [], rederived: false }
    let derived = derivedCache.get(stored)
    if (!derived) {
      derived = { messages: (await rederive(definition, stored.messages, `${conversationId}.rederive`)).messages }
      derivedCache.set(stored, derived)
    }
    return { stored, messages: derived.messages, rederived: true, derived }
  }

  const viewOf = (conversationId: string, messages: readonly Message[]): StateView => {
    const session = openSession(conversationId, messages)
    const { state, events, actions, restart } = snapshotData(session)
    session.dispose()
    return { state, events, actions, ...(restart === undefined ? {} : { restart }) }
  }
  let initialView: StateView | undefined

  /** The state a session reaches on the opened history (cached with it; a live agent's run state is not part of it). */
  const stateView = (conversationId: string, opened: Opened): StateView => {
    const { stored } = opened
    // a conversation not stored yet (a page opening a new chat) is at the start, whatever its id
    if (!stored) return (initialView ??= viewOf(conversationId, []))
    let derived = opened.derived ?? derivedCache.get(stored)
    if (derived?.view) return derived.view
    const view = viewOf(conversationId, opened.messages)
    if (!derived) derivedCache.set(stored, (derived = { messages: opened.messages }))
    derived.view = view
    return view
  }

  const conversationIdOf = (request: Request): string => {
    const id = new URL(request.url).searchParams.get('id')
    if (id === null) throw badRequest('id', 'Name the conversation: ?id=<conversationId>.', 'missing_id')
    if (!isIdentifier(id)) throw badRequest('id', 'The conversation id must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
    return id
  }

  const get = async (request: Request, owner: string | undefined): Promise<Response> => {
    const resumed = resumeConversationIdOf(new URL(request.url))
    if (resumed !== undefined) return resumeStream(resumeContext, resumed, owner, (await open(resumed, owner, false)).stored)
    const conversationId = conversationIdOf(request)
    const opened = await open(conversationId, owner)
    const messages = toUiMessages(opened.messages)
    // a turn running now shows its user message in place (running-turn.ts); a reconnect then resumes its stream
    const running = await runningTurnOf(store, conversationId, owner)
    const shown = running && withRunningTurn(messages, running)
    // `chatrail.versions`: where the versions stand, for chatrail's client (their content stays stored)
    return jsonResponse(200, { messages: shown ?? messages, chatrail: withVersionPositions(stateView(conversationId, opened), opened.messages), ...(shown ? { running: true } : {}) })
  }

  // `GET <api>/<id>/stream` (resume-stream.ts): any instance serves a running turn's stream from the store
  const resumeContext: ResumeContext = {
    store,
    pollMs: resumePollMs,
    clock,
    onError,
    load: (conversationId) => store.load(conversationId),
    snapshotOf: async (conversationId, stored) => stateView(conversationId, await withHistory(conversationId, stored)),
  }

  const remove = async (request: Request, owner: string | undefined): Promise<Response> => {
    const conversationId = conversationIdOf(request)
    const { stored } = await open(conversationId, owner, false)
    return jsonResponse(200, { deleted: stored ? await store.delete(conversationId) : false })
  }

  /** Stop and dialog answers: a signal in the store for whichever instance runs the turn. */
  const control = async (request: ControlRequest, owner: string | undefined): Promise<Response> => {
    // another principal's conversation is 404; a first turn, not stored yet, is signalled only by
    // the principal who claimed it (the lease keeps the owner)
    await open(request.conversationId, owner, false)
    const only = owner === undefined ? undefined : { owner }
    if (request.action === 'stop') return jsonResponse(200, { stopped: await store.signal(request.conversationId, { type: 'stop' }, only) })
    const payload = encodeDialogSignal(request.toolId, request.answer)
    return jsonResponse(200, { delivered: await store.signal(request.conversationId, { type: 'dialog-answer', payload }, only) })
  }

  // `POST { action: 'switch-version' }` (version-switch.ts): fenced like a turn, answered as GET
  const switchContext: VersionSwitchContext<Ctx> = {
    store,
    definition,
    leaseMs,
    turnId: ids,
    busySeconds: (expiresAt) => busyRetry.seconds(expiresAt.getTime() - clock()),
    open: (conversationId, owner, history) => open(conversationId, owner, history),
    view: (conversationId, messages) => viewOf(conversationId, messages),
  }

  const post = async (request: Request, owner: string | undefined): Promise<Response> => {
    const body = await readJsonBody(request, maxBodyBytes)
    if (isVersionSwitchBody(body)) return switchVersion(switchContext, readVersionSwitch(body), owner)
    if (isConfirmationBody(body)) {
      const afterDecision = toolConfirmations && ((conversationId: string) => continueDecided(request, conversationId, owner))
      return answerConfirmation({ store, options: options.confirmations, clock, checkOwner: (id) => open(id, owner, false), tools, ...(afterDecision ? { afterDecision } : {}) }, body, owner)
    }
    if (isControlBody(body)) return control(readControlRequest(body), owner)
    // a turn is admitted until the handler closes (shutdown.ts); the ticket ends with the turn, or with this request when none runs
    const ticket = drain.admit()
    try {
      // useChat's answer to a tool approval (its last message the paused answer) resumes that turn (tool-approval.ts)
      return await startTurn(request, readToolApproval(body) ?? readTurnRequest(body), owner, ticket)
    } catch (error) {
      ticket.end()
      throw error
    }
  }

  /**
   * An endpoint decision's continuation (approval-continuation.ts): once every call the stored
   * answer waits on is decided through its records, the turn resumes as a chat approval would resume
   * it, streamed to the store's resumable record only (a client follows it at `<api>/<id>/stream`).
   * True when the answer is being continued: by this request, or by another door or instance that
   * holds the conversation right now or has just stored it (the client then follows or reads that).
   * Never throws: the decision stands whatever happens here, and a later decision or the chat door
   * resumes the answer.
   */
  const continueDecided = async (request: Request, conversationId: string, owner: string | undefined): Promise<boolean> => {
    try {
      const { messages } = await open(conversationId, owner, false)
      const approval = await decidedApprovals(store, conversationId, messages)
      if (!approval || drain.closing) return false
      const ticket = drain.admit()
      try {
        const response = await startTurn(request, approval, owner, ticket)
        // nobody reads this body: the turn runs to its end and is stored, its parts recorded for followers
        void response.body?.cancel().catch(() => undefined)
      } catch (error) {
        ticket.end()
        throw error
      }
      return true
    } catch (error) {
      // busy: another door or instance is continuing it this moment
      if (error instanceof HttpError && error.code === 'conversation_busy') return true
      // an answer of the HTTP kind (stale, refused by beforeTurn) leaves the answer to the next decision or the chat door
      if (!(error instanceof HttpError)) onError(error)
      return false
    }
  }

  const startTurn = async (request: Request, turn: TurnRequest | ToolApprovalRequest, owner: string | undefined, ticket: DrainTicket): Promise<Response> => {
    const { conversationId } = turn
    const planOf = (messages: readonly Message[]): TurnPlan => ('answers' in turn ? planApproval(messages, turn) : planTurn(messages, turn, now(), definition.revision))
    // the turn's store calls, timed for the devtools (stored with its answer: store-meter.ts)
    const metered = meterStore(store, clock)
    // A first read without re-deriving: a history stored under another revision is planned only
    // under the lease, where it is re-derived (or taken from the cache) and written back.
    const before = await open(conversationId, owner, false, metered.store)
    const stale = before.stored !== undefined && before.stored.definition.revision !== definition.revision
    const early = stale ? undefined : planOf(before.messages)
    if (early?.kind === 'answered' && before.stored) {
      ticket.end()
      return storedAnswer(conversationId, before, early.position)
    }
    await checkBeforeTurn(options.beforeTurn, { principal: owner, conversationId, trigger: 'answers' in turn ? 'submit-message' : turn.trigger, request }, onError)
    const claimed = await metered.store.claim(conversationId, ids(), { leaseMs, ...(owner === undefined ? {} : { owner }) })
    if (claimed.status === 'busy') {
      // when the running turn is likely over (busy-retry.ts), not when its lease would run out
      const seconds = busyRetry.seconds(claimed.expiresAt.getTime() - clock())
      throw new HttpError(409, 'conversation_busy', 'Another turn of this conversation is running; retry after it ends.', { headers: { 'retry-after': String(seconds) } })
    }
    const claimedAt = clock()
    const { lease } = claimed
    let current: Opened
    let messages: readonly Message[]
    let version: number
    let plan: TurnPlan
    let approvalRecords: Awaited<ReturnType<typeof recordsForApproval>> | undefined
    try {
      // A turn may have finished between the first read and the claim: read again under the lease,
      // unless the claim saw the conversation exactly as the first read did (nothing wrote in
      // between, and the lease now fences every write, so the first read is still the history).
      current = unchanged(before.stored, claimed.current) ? await withHistory(conversationId, before.stored) : await open(conversationId, owner, true, metered.store)
      messages = current.messages
      version = current.stored?.version ?? 0
      if (current.rederived) {
        // a revision change: the re-derived history replaces the stored one, under this turn's lease
        version = (await metered.store.append(conversationId, { expectedVersion: version, truncateAfter: null, messages, definition: ref, lease, ...(owner === undefined ? {} : { owner }) })).version
      }
      plan = planOf(messages)
      // the calls' records decide with the other door (approve-action): a contrary answer is 409 before anything is stored
      if (plan.kind === 'resume' && toolConfirmations && 'answers' in turn) approvalRecords = await recordsForApproval(toolConfirmations, plan.resume.paused, turn.answers)
      // an approval's answers are stored before anything runs: what at most once rests on (tool-approval.ts)
      if (plan.kind === 'resume') version = await storeApprovalAnswers(metered.store, conversationId, { expectedVersion: version, user: plan.user, answer: plan.resume.answer, definition: ref, lease, owner })
    } catch (error) {
      await store.release(lease, 'abandoned').catch(() => false)
      throw error
    }
    if (plan.kind === 'answered') {
      await store.release(lease, 'abandoned').catch(() => false)
      ticket.end()
      return storedAnswer(conversationId, current, plan.position)
    }
    const assistantId = plan.resume?.answer.id ?? ids()
    const turnId = `${conversationId}:${assistantId}`
    let session: ChatSession<Ctx>
    let storedReplay: ReturnType<typeof replayableAnswer>
    try {
      session = openSession(conversationId, messages, turnId, owner)
      storedReplay = plan.kind === 'regenerate' ? replayableAnswer(session, messages, plan.history.length) : undefined
    } catch (error) {
      await store.release(lease, 'failed').catch(() => false)
      throw error
    }
    const { body: stream, sink: response } = createPartStream()
    const halt = new AbortController()
    ticket.running({ halt, lease })
    const userId = plan.user.id
    const traced = telemetry.turn(request, { conversationId, turnId, plan: plan.kind, stateBefore: () => session.getSnapshot().state, trace: () => session.traces().findLast((trace) => trace.messageId === userId) })
    // the turn's parts also go to the store in batches, so a client that reconnects is served them by any instance
    const sink = recordTurnParts({ store: metered.store, conversationId, lease, owner, header: () => runningTurnHeader(plan.history, plan.user), flushMs: partFlushMs, sink: traced.sink(response), onError })
    // one literal for both kinds of turn (spreading a shared part into each cost more than the rest of the setup)
    const input: TurnInput<Ctx> = { store: metered.store, storeSpentMs: metered.spentMs, session, conversationId, definition: ref, owner, lease, expectedVersion: version, user: plan.user, assistantId, now, sink, onError, leaseMs, turnTimeoutMs, signalPollMs, liveAgent, history: plan.history, write: plan.write, halt: halt.signal, tools, resume: plan.resume, approvals: toolConfirmations && {
      propose: (paused) => proposeToolApprovals(toolConfirmations, conversationId, owner, paused),
      ...(approvalRecords && approvalRecords.size > 0 ? { settle: settleThroughRecords(toolConfirmations, conversationId, owner, approvalRecords) } : {}),
    } }
    // the turn runs on its own: it completes and is stored whether or not the client keeps reading
    const running = traced.run(() => (storedReplay ? replayStoredAnswer(input, storedReplay) : runTurn(input)))
    void running.catch(onError).finally(() => {
      traced.end()
      session.dispose()
      busyRetry.record(clock() - claimedAt)
      ticket.end()
    })
    return streamResponse(stream)
  }

  /** The stored answer to a user message already answered (a network retry never runs a turn twice). */
  const storedAnswer = (conversationId: string, opened: Opened, position: number): Response => {
    let data: ChatrailPartData
    if (liveAgent) {
      // a live agent's run state is part of the snapshot and is not a function of history: never cached
      const session = openSession(conversationId, opened.messages)
      data = snapshotData(session)
      session.dispose()
    } else data = stateView(conversationId, opened)
    return streamResponse(storedAnswerStream(opened.messages, position, withVersionPositions(data, opened.messages)))
  }

  const principalOf = async (request: Request): Promise<string | undefined> => {
    if (authenticate === 'none') return undefined
    const principal = await authenticate(request)
    if (principal === null || principal === undefined) throw new HttpError(401, 'unauthorized', 'Authenticate to use this chat.')
    if (typeof principal !== 'string' || principal === '' || principal.length > 512) {
      onError(new TypeError('createChatHandler: authenticate must return a principal id (a non-empty string of at most 512 characters), or null for 401.'))
      throw new HttpError(500, 'internal_error', 'The server failed to handle this request.')
    }
    return principal
  }

  const route = async (request: Request): Promise<Response> => {
    try {
      if (drain.closed) throw shuttingDown()
      const owner = await principalOf(request)
      switch (request.method) {
        case 'POST':
          return await post(request, owner)
        case 'GET':
          return await get(request, owner)
        case 'DELETE':
          return await remove(request, owner)
        default:
          throw new HttpError(405, 'method_not_allowed', `${request.method} is not served here; use POST (a turn, a stop or a dialog answer), GET (?id=, the conversation) or DELETE (?id=, clear it).`, { headers: { allow: 'GET, POST, DELETE' } })
      }
    } catch (error) {
      const failure = toHttpError(error, onError)
      telemetry.failed(request, failure.status, failure.code)
      return errorResponse(failure)
    }
  }

  const handle = async (request: Request): Promise<Response> => {
    // a browser's preflight carries no credentials: answered before authentication
    const preflight = cors?.preflight(request)
    if (preflight) return preflight
    const response = await route(request)
    return cors ? cors.apply(request, response) : response
  }
  const tracedHandle = (request: Request): Promise<Response> => telemetry.request(request, () => handle(request))
  const close = (closeOptions?: { readonly deadlineMs?: number }): Promise<void> =>
    drain.close(positive(closeOptions?.deadlineMs, DEFAULT_CLOSE_DEADLINE_MS, 'close({ deadlineMs })'))
  Object.defineProperty(tracedHandle, 'closing', { get: () => drain.closing, enumerable: true })
  return Object.assign(tracedHandle, { close }) as ChatHandler
}

/**
 * Default ids: one random UUID per handler and a counter, so ids stay unique across instances and
 * restarts without paying for a UUID (Web Crypto) per id, two per turn.
 */
function uniqueIds(): () => string {
  const prefix = globalThis.crypto.randomUUID()
  let n = 0
  return () => `${prefix}-${(++n).toString(36)}`
}

/**
 * Whether the claim found the conversation as the first read did. A store that does not report it
 * (a port implementation older than `ClaimResult.current`) never matches, so the handler loads.
 * The version changes on every write; the revision and write time also tell apart a conversation
 * deleted and written again up to the same version between the read and the claim (unless all of
 * that happened within one millisecond of the store's clock).
 */
function unchanged(read: StoredConversation | undefined, claimed: ConversationStamp | undefined): boolean {
  if (claimed === undefined) return false
  if (read === undefined) return claimed.version === 0
  return claimed.version === read.version && claimed.revision === read.definition.revision && claimed.updatedAt?.getTime() === read.updatedAt.getTime()
}

const notFound = (): HttpError => new HttpError(404, 'not_found', 'There is no conversation with this id.')

function toHttpError(error: unknown, onError: (error: unknown) => void): HttpError {
  if (error instanceof HttpError) return error
  onError(error)
  if (isOwnerMismatchError(error)) return notFound()
  if (isDefinitionMismatchError(error)) return new HttpError(409, 'definition_mismatch', 'This conversation belongs to another chat definition.')
  if (isStoreConflictError(error) || isStoreLeaseError(error)) return new HttpError(409, 'conversation_busy', 'Another turn of this conversation changed it; retry.', { headers: { 'retry-after': '1' } })
  if (isStoreUnavailableError(error)) return new HttpError(503, 'store_unavailable', 'The conversation store is unavailable; retry later.', { headers: { 'retry-after': '5' } })
  return new HttpError(500, 'internal_error', 'The server failed to handle this request.')
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`createChatHandler: ${name} must be a positive integer (got ${String(value)}).`)
  return value
}

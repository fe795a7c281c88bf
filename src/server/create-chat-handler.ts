import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { JsonObject } from '../conversation/json.js'
import { createChatSession, type ChatSession, type ChatSessionOptions } from '../conversation/session.js'
import { UI_MESSAGE_STREAM_HEADERS } from '../protocol/ui-parts.js'
import type { ConversationStore, StoredConversation } from '../store/conversation-store.js'
import { isDefinitionMismatchError, isStoreConflictError, isStoreLeaseError, isStoreUnavailableError } from '../store/store-errors.js'
import { badRequest, errorResponse, HttpError, jsonResponse } from './http-responses.js'
import { createPartStream } from './part-stream.js'
import { planTurn, type TurnPlan } from './plan-turn.js'
import { readJsonBody } from './read-json-body.js'
import { replayableAnswer, replayStoredAnswer } from './replay-answer.js'
import { runTurn, snapshotData } from './run-turn.js'
import { storedAnswerStream } from './stored-answer.js'
import { readTurnRequest } from './turn-request.js'
import { toUiMessages } from './ui-messages.js'

/**
 * `createChatHandler`: a chatrail workflow behind one Web-standard handler that `useChat` talks
 * to unchanged (the AI SDK UI message stream). Stateless between requests: every turn loads the
 * conversation from the store, holds its lease while it runs, and stores its outcome in one
 * fenced write, so any number of instances can serve one Postgres.
 */

/** Who is asking: a principal id, or null/undefined for "not authenticated" (401). */
export type Authenticate = (request: Request) => string | null | undefined | Promise<string | null | undefined>

export interface ChatHandlerLimits {
  /** The largest request body accepted (413 above it). Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** How long a turn's lease lasts; renewed every third of it while the turn streams. Default 30 s. */
  readonly leaseMs?: number
  /** How long a turn may run before it ends with a `TURN_TIMEOUT` error part (nothing stored, lease released). Default 5 min. */
  readonly turnTimeoutMs?: number
}

export interface ChatHandlerOptions<Ctx extends JsonObject = JsonObject> {
  readonly definition: ChatDefinition<Ctx>
  readonly store: ConversationStore
  /** Required: a function, or `'none'` to serve without authentication (a local tool, a test). */
  readonly authenticate: Authenticate | 'none'
  readonly limits?: ChatHandlerLimits
  /** Session options (`recordKey`, `onTrace`, `clock`); `sessionId` is the conversation id. */
  readonly session?: Omit<ChatSessionOptions<Ctx>, 'sessionId' | 'start'>
  /** Assistant message and turn ids. Default `crypto.randomUUID()`. */
  readonly ids?: () => string
  /** Milliseconds since the epoch, for message times and Retry-After. Default `Date.now`. */
  readonly clock?: () => number
  /** Where internal errors go (responses carry codes only). */
  readonly onError?: (error: unknown) => void
}

export type ChatHandler = (request: Request) => Promise<Response>

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024
const DEFAULT_LEASE_MS = 30_000
const DEFAULT_TURN_TIMEOUT_MS = 5 * 60_000

export function createChatHandler<Ctx extends JsonObject>(options: ChatHandlerOptions<Ctx>): ChatHandler {
  const { definition, store } = options
  if (options.authenticate !== 'none' && typeof options.authenticate !== 'function') {
    throw new TypeError("createChatHandler: pass `authenticate` (a function returning the principal, or null for 401) or `authenticate: 'none'` to serve without authentication.")
  }
  const maxBodyBytes = positive(options.limits?.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'limits.maxBodyBytes')
  const leaseMs = positive(options.limits?.leaseMs, DEFAULT_LEASE_MS, 'limits.leaseMs')
  const turnTimeoutMs = positive(options.limits?.turnTimeoutMs, DEFAULT_TURN_TIMEOUT_MS, 'limits.turnTimeoutMs')
  const ids = options.ids ?? (() => globalThis.crypto.randomUUID())
  const clock = options.clock ?? Date.now
  const onError = (error: unknown): void => {
    try {
      options.onError?.(error)
    } catch {
      // an observer that throws must not change a response
    }
  }
  const ref = { id: definition.id, revision: definition.revision }

  const openSession = (conversationId: string, messages: readonly Message[]): ChatSession<Ctx> => {
    const session = createChatSession(definition, { lint: false, ...options.session, sessionId: conversationId })
    session.sync(messages, { trusted: true })
    return session
  }

  const load = async (conversationId: string): Promise<StoredConversation | undefined> => {
    const stored = await store.load(conversationId)
    if (stored && stored.definition.id !== definition.id) throw new HttpError(409, 'definition_mismatch', 'This conversation belongs to another chat definition.')
    if (stored && stored.definition.revision !== definition.revision) throw new HttpError(409, 'revision_mismatch', `This conversation was stored under revision ${stored.definition.revision} of the definition; this server runs revision ${definition.revision}.`)
    return stored
  }

  const conversationIdOf = (request: Request): string => {
    const id = new URL(request.url).searchParams.get('id')
    if (id === null) throw badRequest('id', 'Name the conversation: ?id=<conversationId>.', 'missing_id')
    if (!isIdentifier(id)) throw badRequest('id', 'The conversation id must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
    return id
  }

  const get = async (request: Request): Promise<Response> => {
    const conversationId = conversationIdOf(request)
    const stored = await load(conversationId)
    const session = openSession(conversationId, stored?.messages ?? [])
    const { state, events, actions } = snapshotData(session)
    session.dispose()
    return jsonResponse(200, { messages: toUiMessages(stored?.messages ?? []), chatrail: { state, events, actions } })
  }

  const remove = async (request: Request): Promise<Response> => {
    const deleted = await store.delete(conversationIdOf(request))
    return jsonResponse(200, { deleted })
  }

  const post = async (request: Request): Promise<Response> => {
    const turn = readTurnRequest(await readJsonBody(request, maxBodyBytes))
    const { conversationId } = turn
    const before = await load(conversationId)
    const early = planTurn(before?.messages ?? [], turn, new Date(clock()))
    if (early.kind === 'answered' && before) return storedAnswer(before, early.position)
    const claimed = await store.claim(conversationId, ids(), { leaseMs })
    if (claimed.status === 'busy') {
      const seconds = Math.max(1, Math.ceil((claimed.expiresAt.getTime() - clock()) / 1000))
      throw new HttpError(409, 'conversation_busy', 'Another turn of this conversation is running; retry after it ends.', { headers: { 'retry-after': String(seconds) } })
    }
    let current: StoredConversation | undefined
    let plan: TurnPlan
    try {
      // read again under the lease: a turn may have finished between the first read and the claim
      current = await load(conversationId)
      plan = planTurn(current?.messages ?? [], turn, new Date(clock()))
    } catch (error) {
      await store.release(claimed.lease, 'abandoned').catch(() => false)
      throw error
    }
    if (plan.kind === 'answered') {
      await store.release(claimed.lease, 'abandoned').catch(() => false)
      return storedAnswer(current as StoredConversation, plan.position)
    }
    const messages = current?.messages ?? []
    let session: ChatSession<Ctx>
    let storedReplay: ReturnType<typeof replayableAnswer>
    try {
      session = openSession(conversationId, messages)
      storedReplay = plan.kind === 'regenerate' ? replayableAnswer(session, messages, plan.history.length) : undefined
    } catch (error) {
      await store.release(claimed.lease, 'failed').catch(() => false)
      throw error
    }
    const { body, sink } = createPartStream()
    const common = { store, session, conversationId, definition: ref, lease: claimed.lease, expectedVersion: current?.version ?? 0, user: plan.user, assistantId: ids(), now: () => new Date(clock()), sink, onError }
    // the turn runs on its own: it completes and is stored whether or not the client keeps reading
    const running = storedReplay
      ? replayStoredAnswer({ ...common, replay: storedReplay })
      : runTurn({ ...common, leaseMs, turnTimeoutMs, history: plan.history, write: plan.write })
    void running.catch(onError).finally(() => session.dispose())
    return new Response(body, { status: 200, headers: { ...UI_MESSAGE_STREAM_HEADERS } })
  }

  /** The stored answer to a user message already answered (a network retry never runs a turn twice). */
  const storedAnswer = (stored: StoredConversation, position: number): Response => {
    const session = openSession(stored.conversationId, stored.messages)
    const data = snapshotData(session)
    session.dispose()
    return new Response(storedAnswerStream(stored.messages, position, data), { status: 200, headers: { ...UI_MESSAGE_STREAM_HEADERS } })
  }

  return async (request) => {
    try {
      if (options.authenticate !== 'none') {
        const principal = await options.authenticate(request)
        if (principal === null || principal === undefined) throw new HttpError(401, 'unauthorized', 'Authenticate to use this chat.')
      }
      switch (request.method) {
        case 'POST':
          return await post(request)
        case 'GET':
          return await get(request)
        case 'DELETE':
          return await remove(request)
        default:
          throw new HttpError(405, 'method_not_allowed', `${request.method} is not served here; use POST (a turn), GET (?id=, the conversation) or DELETE (?id=, clear it).`, { headers: { allow: 'GET, POST, DELETE' } })
      }
    } catch (error) {
      return errorResponse(toHttpError(error, onError))
    }
  }
}

function toHttpError(error: unknown, onError: (error: unknown) => void): HttpError {
  if (error instanceof HttpError) return error
  onError(error)
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

import type { Message } from '../contract/message.js'
import type { ChatDefinition } from '../conversation/definition.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { JsonObject } from '../conversation/json.js'
import type { ChatrailPartData } from '../protocol/ui-parts.js'
import type { ConversationStore, StoredConversation } from '../store/conversation-store.js'
import { rederive } from '../store/rederive.js'
import { badRequest, HttpError, jsonResponse } from './http-responses.js'
import { keptUnderAnotherRevision, switchVersion as switchedHistory, versionPositions, versionsOf } from './message-versions.js'
import { toUiMessages } from './ui-messages.js'

/**
 * `POST { id, action: 'switch-version', messageId, place, index }`: show version `index` of a place
 * of the stored conversation (message-versions.ts). The place is named by its user message
 * (`messageId`, an id the client and the store share) and which of its places: `question` (the
 * user message's own edits) or `answer` (the regenerates of its first reply). A small control
 * request rather than a turn: it runs no agent, and it writes under a lease of its own in one
 * fenced append, as a turn does, so it never races a turn. Everything is checked against the
 * store: a message or version the conversation does not hold is a 4xx naming the field.
 */
export interface VersionSwitchRequest {
  readonly conversationId: string
  readonly messageId: string
  readonly place: 'question' | 'answer'
  readonly index: number
}

/** What the switch writes: the new suffix, appended after `truncateAfter` (null: from the start). */
export interface VersionSwitchWrite {
  readonly truncateAfter: string | null
  readonly suffix: readonly Message[]
  /** The whole history once written. */
  readonly history: readonly Message[]
}

const ID_RULE = 'letters, digits and . _ : - (starting with a letter or digit, at most 128 characters)'
const USAGE = "Send { id, action: 'switch-version', messageId, place: 'question' | 'answer', index }."

export const isVersionSwitchBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { action?: unknown }).action === 'switch-version'

export function readVersionSwitch(body: unknown): VersionSwitchRequest {
  const { id, messageId, place, index } = body as Record<string, unknown>
  if (!isIdentifier(id)) throw badRequest('id', `The conversation id must be ${ID_RULE}. ${USAGE}`)
  if (!isIdentifier(messageId)) throw badRequest('messageId', `messageId must name a user message of the conversation (${ID_RULE}). ${USAGE}`)
  if (place !== 'question' && place !== 'answer') throw badRequest('place', `place must be 'question' (the user message's edits) or 'answer' (its reply's regenerates), got ${JSON.stringify(place) ?? 'nothing'}.`)
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) throw badRequest('index', `index must be a whole number from 0 (the version to show), got ${JSON.stringify(index) ?? 'nothing'}.`)
  return { conversationId: id, messageId, place, index }
}

/**
 * The write that shows the requested version on `messages` (the stored history), or undefined when
 * it is already shown. Pure; throws `HttpError`s: 404 `unknown_message` for a message the
 * conversation does not hold as a user message (or a reply it does not have), 400
 * `unknown_version` for an index past the place's versions.
 */
export function planVersionSwitch(messages: readonly Message[], request: VersionSwitchRequest): VersionSwitchWrite | undefined {
  const user = messages.findIndex((message) => message.id === request.messageId)
  if (user < 0 || messages[user]?.role !== 'user') throw new HttpError(404, 'unknown_message', 'messageId names no user message of this conversation.', { path: 'messageId' })
  const at = request.place === 'question' ? user : user + 1
  if (request.place === 'answer' && messages[at]?.role !== 'assistant') throw new HttpError(404, 'unknown_message', 'This user message has no reply to switch versions of.', { path: 'messageId' })
  const outcome = switchedHistory(messages, at, request.index)
  if (outcome.kind === 'same') return undefined
  if (outcome.kind === 'out-of-range') {
    throw badRequest('index', `This ${request.place} has ${outcome.count} version${outcome.count === 1 ? '' : 's'}: index must be below ${outcome.count}.`, 'unknown_version')
  }
  return { truncateAfter: at > 0 ? (messages[at - 1] as Message).id : null, suffix: outcome.suffix, history: [...messages.slice(0, at), ...outcome.suffix] }
}

/** What a switch needs of the handler (create-chat-handler.ts). */
export interface VersionSwitchContext<Ctx extends JsonObject = JsonObject> {
  readonly store: ConversationStore
  readonly definition: ChatDefinition<Ctx>
  readonly leaseMs: number
  /** The id of the lease's turn. */
  readonly turnId: () => string
  /** The Retry-After of a 409 while a turn holds the lease until `expiresAt`. */
  readonly busySeconds: (expiresAt: Date) => number
  /** The conversation for a principal (404 for another's), its history under this revision when `history`. */
  readonly open: (conversationId: string, owner: string | undefined, history: boolean) => Promise<{ readonly stored: StoredConversation | undefined; readonly messages: readonly Message[]; readonly rederived: boolean }>
  /** Where a session stands on a history. */
  readonly view: (conversationId: string, messages: readonly Message[]) => Pick<ChatrailPartData, 'state' | 'events' | 'actions' | 'restart'>
}

const notFound = (): HttpError => new HttpError(404, 'not_found', 'There is no conversation with this id.')

/**
 * Runs a switch: under a lease of its own, like a turn (409 `conversation_busy` while one runs), the
 * stored history is replaced from the place on in one fenced append, and the answer is the
 * conversation as GET gives it, plus `switched`. A history stored under another revision is
 * re-derived first, as a turn does; a version kept under another revision is re-derived through
 * this one when switched to (message-versions.ts), so no state of an old definition comes back.
 */
export async function switchVersion<Ctx extends JsonObject>(context: VersionSwitchContext<Ctx>, request: VersionSwitchRequest, owner: string | undefined): Promise<Response> {
  const { store, definition } = context
  const { conversationId } = request
  if (!(await context.open(conversationId, owner, false)).stored) throw notFound()
  const ownerField = owner === undefined ? {} : { owner }
  const claimed = await store.claim(conversationId, context.turnId(), { leaseMs: context.leaseMs, ...ownerField })
  if (claimed.status === 'busy') {
    throw new HttpError(409, 'conversation_busy', 'A turn of this conversation is running; switch versions after it ends.', { headers: { 'retry-after': String(context.busySeconds(claimed.expiresAt)) } })
  }
  const { lease } = claimed
  const ref = { id: definition.id, revision: definition.revision }
  try {
    const current = await context.open(conversationId, owner, true)
    if (!current.stored) throw notFound()
    let version = current.stored.version
    if (current.rederived) version = (await store.append(conversationId, { expectedVersion: version, truncateAfter: null, messages: current.messages, definition: ref, lease, ...ownerField })).version
    const write = planVersionSwitch(current.messages, request)
    let history = write?.history ?? current.messages
    const stale = write !== undefined && keptUnderAnotherRevision(versionsOf(write.suffix[0]), definition.revision)
    if (stale) history = (await rederive(definition, history, `${conversationId}.rederive`)).messages
    if (write) await store.append(conversationId, { expectedVersion: version, ...(stale ? { truncateAfter: null, messages: history } : { truncateAfter: write.truncateAfter, messages: write.suffix }), definition: ref, lease, ...ownerField, release: 'completed' })
    else await store.release(lease, 'completed').catch(() => false)
    const positions = versionPositions(history)
    const view = context.view(conversationId, history)
    return jsonResponse(200, { messages: toUiMessages(history), chatrail: Object.keys(positions).length === 0 ? view : { ...view, versions: positions }, switched: write !== undefined })
  } catch (error) {
    await store.release(lease, 'abandoned').catch(() => false)
    throw error
  }
}

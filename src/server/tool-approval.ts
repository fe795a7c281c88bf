import { AnswerParts } from '../contract/answer-parts.js'
import type { Message } from '../contract/message.js'
import { isIdentifier } from '../conversation/identifier.js'
import type { ConversationStore, DefinitionRef, Lease } from '../store/conversation-store.js'
import { badRequest, HttpError } from './http-responses.js'
import type { TurnPlan } from './plan-turn.js'
import { storedToolsOf, type StoredTool } from './tool-ledger.js'
import type { PausedCall, PausedLoop } from './tool-loop.js'

/**
 * The AI SDK's tool-approval flow on the server. A turn whose model calls a tool marked
 * `requiresConfirmation` pauses (tool-loop.ts): the answer so far is stored with the call awaiting
 * approval (`metadata.tools`, state `approval-requested`) and what the loop needs to go on
 * (`metadata.toolLoop`), the lease is released, and the client gets `tool-approval-request`.
 * `useChat` answers with `addToolApprovalResponse` and sends its messages again, the last one the
 * assistant message with the tool part `approval-responded`: any instance takes that request
 * here. Under the conversation's lease the answers are stored first (the call's `approval` gets
 * `approved`), then the turn goes on: the approved tool runs, a denied one tells the model so, and
 * the model is called again; the answer grows in place (same message id) and is stored once more.
 *
 * At most once: two instances answering at once meet at the lease (one runs, the other is 409
 * `conversation_busy`, and after it the stored answer); an approval already carried out is answered
 * from the store. A crash between storing the answer and storing the tool's result leaves the
 * approval stored as answered: the next request (the client's retry) runs the tool again with the
 * same `idempotencyKey` (`<conversationId>:<approvalId>`), so a tool that dedupes by it acts once.
 */
export interface ToolApprovalRequest {
  readonly conversationId: string
  /** The assistant message the approvals answer: the paused answer's id. */
  readonly messageId: string
  readonly answers: ReadonlyMap<string, ApprovalAnswer>
}

export interface ApprovalAnswer {
  readonly approved: boolean
  readonly reason?: string
}

/** What a resumed turn goes on from: the stored answer (approvals answered) and its paused loop. */
export interface ResumedAnswer {
  readonly answer: Message
  readonly paused: PausedLoop
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

const MAX_REASON_CHARS = 2_000

/**
 * The approvals a POSTed chat request carries, or undefined when it is no approval (its last message
 * is not an assistant message with a tool part in state `approval-responded`). Only the last
 * message is read; the rest of the client's history is ignored, as for any turn.
 */
export function readToolApproval(body: unknown): ToolApprovalRequest | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return undefined
  const index = body.messages.length - 1
  const last: unknown = body.messages[index]
  if (!isObject(last) || last.role !== 'assistant' || !Array.isArray(last.parts)) return undefined
  const answers = new Map<string, ApprovalAnswer>()
  for (const [at, part] of (last.parts as unknown[]).entries()) {
    if (!isObject(part) || part.state !== 'approval-responded') continue
    const approval = part.approval
    const path = `messages.${index}.parts.${at}.approval`
    if (!isObject(approval) || typeof approval.id !== 'string' || approval.id === '' || approval.id.length > 512 || typeof approval.approved !== 'boolean') {
      throw badRequest(path, 'An approval response must be { id, approved: boolean, reason? }, as addToolApprovalResponse sends it.')
    }
    if (approval.reason !== undefined && typeof approval.reason !== 'string') throw badRequest(`${path}.reason`, 'An approval reason must be a string.')
    const reason = typeof approval.reason === 'string' ? approval.reason.slice(0, MAX_REASON_CHARS) : undefined
    answers.set(approval.id, { approved: approval.approved, ...(reason === undefined ? {} : { reason }) })
  }
  if (answers.size === 0) return undefined
  if (typeof body.id !== 'string' || !isIdentifier(body.id)) throw badRequest('id', 'The conversation id must be letters, digits and . _ : - (starting with a letter or digit, at most 128 characters).')
  if (typeof last.id !== 'string') throw badRequest(`messages.${index}.id`, 'The assistant message must carry its id.')
  return { conversationId: body.id, messageId: last.id, answers }
}

/** The paused loop a stored answer keeps, when it is one (the row may come from anywhere: its shape is checked). */
export function pausedLoopOf(message: Message): PausedLoop | undefined {
  const loop = message.metadata?.toolLoop as Partial<PausedLoop> | undefined
  if (!isObject(loop) || !Array.isArray(loop.steps) || !Array.isArray(loop.calls) || typeof loop.text !== 'string' || typeof loop.step !== 'number') return undefined
  return loop as PausedLoop
}

/**
 * What an approval asks of the stored conversation (pure): `answered` when the answer it names
 * awaits no approval any more (carried out already: its stored answer; `409 approval_conflict`
 * when it answers a call the other way than it was decided), else `resume` with the
 * answers written into the stored calls. An approval for anything but the conversation's last
 * answer, or one that leaves a pending call unanswered, is refused.
 */
export function planApproval(messages: readonly Message[], request: ToolApprovalRequest): TurnPlan {
  const position = messages.findIndex((message) => message.id === request.messageId)
  const answer = messages[position]
  if (!answer || answer.role !== 'assistant') throw new HttpError(404, 'unknown_message', 'The answer these approvals are for is not in this conversation.')
  const userAt = messages.findLastIndex((message, index) => index < position && message.role === 'user')
  const user = messages[userAt]
  if (!user) throw new HttpError(404, 'unknown_message', 'The answer these approvals are for answers no user message.')
  const paused = pausedLoopOf(answer)
  const tools = storedToolsOf(answer.metadata)
  const pending = tools.filter((tool) => tool.state === 'approval-requested')
  if (!paused || pending.length === 0) {
    // carried out already (through this door or an approval card's): the same answers get the stored answer, contrary ones are told so
    const contrary = tools.find((tool) => tool.approval?.approved !== undefined && request.answers.has(tool.approval.id) && request.answers.get(tool.approval.id)?.approved !== tool.approval.approved)
    if (contrary) throw new HttpError(409, 'approval_conflict', `The call "${contrary.toolName}" was ${contrary.approval?.approved ? 'approved' : 'denied'} already and the answer went on; this answer cannot change that. Reload the conversation.`)
    return { kind: 'answered', position: userAt }
  }
  if (position !== messages.length - 1) throw new HttpError(409, 'approval_stale', 'The conversation went on after this answer; its approvals no longer apply.')
  const answered = tools.map((tool): StoredTool => {
    if (tool.state !== 'approval-requested' || tool.approval === undefined || tool.approval.approved !== undefined) return tool
    const given = request.answers.get(tool.approval.id)
    if (!given) throw badRequest('messages', `The approval for tool call "${tool.toolCallId}" (${tool.toolName}) is missing: answer every approval the answer asks for.`, 'approval_missing')
    return { ...tool, approval: { id: tool.approval.id, approved: given.approved, ...(given.reason === undefined ? {} : { reason: given.reason }) } }
  })
  const resumed: Message = { ...answer, metadata: { ...answer.metadata, tools: answered } }
  return { kind: 'resume', user, history: messages.slice(0, userAt), write: { truncateAfter: user.id, includeUser: false }, resume: { answer: resumed, paused } }
}

/**
 * Stores the answers before anything runs (the approval's record, under the lease): a crash from
 * here on finds them and runs the approved calls again under the same idempotency keys. Returns the
 * version the turn's own write expects.
 */
export async function storeApprovalAnswers(store: ConversationStore, conversationId: string, write: { expectedVersion: number; user: Message; answer: Message; definition: DefinitionRef; lease: Lease; owner: string | undefined }): Promise<number> {
  const appended = await store.append(conversationId, {
    expectedVersion: write.expectedVersion,
    truncateAfter: write.user.id,
    messages: [write.answer],
    definition: write.definition,
    lease: write.lease,
    ...(write.owner === undefined ? {} : { owner: write.owner }),
  })
  return appended.version
}

/** The key an approved call runs under, the same on every attempt. */
export const approvalIdempotencyKey = (conversationId: string, approvalId: string): string => `${conversationId}:${approvalId}`

/** The resumed answer's text and components, for the turn to go on writing (a fresh answer when none). */
export function answerSoFar(resume: ResumedAnswer | undefined): AnswerParts {
  const answer = new AnswerParts()
  if (!resume) return answer
  const { content, parts } = resume.answer
  if (!parts) answer.text(content)
  else for (const part of parts) {
    if (part.type === 'text') answer.text(part.text)
    else if (part.type === 'component') answer.component(part)
  }
  return answer
}

/** The paused loop with the stored answers on its calls, and the key each approved call runs under. */
export function resumedLoop(resume: ResumedAnswer, conversationId: string): { paused: PausedLoop; idempotencyKey: (approvalId: string) => string } {
  const approvals = new Map(storedToolsOf(resume.answer.metadata).map((tool) => [tool.toolCallId, tool.approval]))
  const calls = resume.paused.calls.map((call): PausedCall => {
    const approval = approvals.get(call.id)
    return approval?.approved === undefined ? call : { ...call, answer: { approved: approval.approved, ...(approval.reason === undefined ? {} : { reason: approval.reason }) } }
  })
  return { paused: { ...resume.paused, calls }, idempotencyKey: (approvalId) => approvalIdempotencyKey(conversationId, approvalId) }
}

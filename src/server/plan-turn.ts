import type { Message } from '../contract/message.js'
import type { Interaction } from '../conversation/interactions.js'
import { uiEventMessageMetadata, uiEventOf } from '../conversation/ui-events.js'
import { badRequest, HttpError } from './http-responses.js'
import { versionsAfterReplacing, withVersions, type StoredVersions } from './message-versions.js'
import type { ResumedAnswer } from './tool-approval.js'
import type { TurnRequest } from './turn-request.js'

/**
 * What a POST asks of the stored conversation, decided from the store's history and the new user
 * message alone (pure):
 * - `answered`: a submit of a user message stored with the same text (a network retry, a double
 *   click): its stored answer, nothing runs; unless that answer failed (`status: 'error'`): then
 *   the submit is a retry, answered again like a `regenerate`;
 * - `new`: a message the conversation does not hold: append it and its answer;
 * - `edit`: a submit reusing a stored user message's id with other text (`useChat`'s
 *   `sendMessage({ text, messageId })`): drop that message and everything after it, then append
 *   the edited message and its answer;
 * - `regenerate`: answer the stored user message again (its stored text, never the client's copy),
 *   replacing everything after it.
 */
export type TurnPlan =
  | { readonly kind: 'answered'; readonly position: number }
  | { readonly kind: 'new' | 'edit' | 'regenerate'; readonly user: Message; readonly history: readonly Message[]; readonly write: TurnWrite; readonly resume?: undefined }
  /** A paused tool loop answered by the user's approvals (tool-approval.ts): the stored answer goes on. */
  | { readonly kind: 'resume'; readonly user: Message; readonly history: readonly Message[]; readonly write: TurnWrite; readonly resume: ResumedAnswer }

/**
 * How the finished turn is written: after which message the store truncates, whether the user
 * message is part of the append, and the record of versions its answer heads (a regenerate keeps
 * the replaced reply as a version: message-versions.ts; an edit's record rides on the user message).
 */
export interface TurnWrite {
  readonly truncateAfter?: string | null
  readonly includeUser: boolean
  readonly answerVersions?: StoredVersions
}

/**
 * The write of a turn answering `messages[position]` again: the replaced reply is kept as a version
 * when `keep` and it did not fail (asking again after a failure keeps nothing, as the controller's
 * `retry` does); versions kept earlier stay either way.
 */
function regenerateWrite(messages: readonly Message[], position: number, keep: boolean, revision: number): TurnWrite {
  const reply = messages[position + 1]
  const answerVersions = reply === undefined ? undefined : versionsAfterReplacing(messages, position + 1, keep && reply.status !== 'error', revision)
  return { truncateAfter: (messages[position] as Message).id, includeUser: false, ...(answerVersions ? { answerVersions } : {}) }
}

/** `revision`: the definition's, which the versions a turn keeps are recorded under (message-versions.ts). */
export function planTurn(messages: readonly Message[], turn: TurnRequest, now: Date, revision = 0): TurnPlan {
  const position = messages.findIndex((message) => message.id === turn.user.id)
  const stored = position >= 0 ? (messages[position] as Message) : undefined
  if (stored && stored.role !== 'user') throw badRequest('messages', 'The last message reuses the id of an answer in this conversation; give the user message its own id.', 'duplicate_id')
  if (turn.trigger === 'regenerate-message') {
    if (!stored) throw new HttpError(404, 'unknown_message', 'The message to regenerate an answer for is not in this conversation.')
    return { kind: 'regenerate', user: stored, history: messages.slice(0, position), write: regenerateWrite(messages, position, true, revision) }
  }
  if (stored && stored.content === turn.user.text && uiEventOf(stored) === turn.user.uiEvent) {
    if (messages[position + 1]?.status !== 'error') return { kind: 'answered', position }
    return { kind: 'regenerate', user: stored, history: messages.slice(0, position), write: regenerateWrite(messages, position, false, revision) }
  }
  const user: Message = {
    id: turn.user.id,
    role: 'user',
    content: turn.user.text,
    status: 'complete',
    createdAt: now,
    ...(turn.user.uiEvent === undefined ? {} : { metadata: turn.user.interaction ? { chatrail: { event: turn.user.uiEvent, interaction: storedInteraction(messages, turn.user.interaction, turn.user.interactionAnswerTo) } } : uiEventMessageMetadata(turn.user.uiEvent) }),
  }
  if (!stored) return { kind: 'new', user, history: messages, write: { includeUser: true } }
  const previous = position > 0 ? (messages[position - 1] as Message).id : null
  // the edited question keeps what it replaced (itself and everything after it) as a version
  const edited = withVersions(user, versionsAfterReplacing(messages, position, true, revision))
  return { kind: 'edit', user: edited, history: messages.slice(0, position), write: { truncateAfter: previous, includeUser: true } }
}

/**
 * The interaction with its answer named by the store's id. A page that streamed the answer knows
 * it by its controller's id, which the store never saw; the user message that answer answered is
 * known to both, so the stored answer after it is the one meant. Whether that answer holds the
 * component, and whether the interaction stands, is the session's to judge.
 */
function storedInteraction(messages: readonly Message[], interaction: Interaction, answerTo: string | undefined): Interaction {
  if (answerTo === undefined || messages.some((message) => message.id === interaction.messageId && message.role === 'assistant')) return interaction
  const user = messages.findIndex((message) => message.id === answerTo && message.role === 'user')
  if (user < 0) return interaction
  for (const message of messages.slice(user + 1)) {
    if (message.role === 'user') break
    if (message.role === 'assistant') return { ...interaction, messageId: message.id }
  }
  return interaction
}

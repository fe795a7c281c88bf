import type { Message } from '../contract/message.js'
import type { Interaction } from '../conversation/interactions.js'
import { uiEventMessageMetadata, uiEventOf } from '../conversation/ui-events.js'
import { badRequest, HttpError } from './http-responses.js'
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

/** How the finished turn is written: after which message the store truncates, and whether the user message is part of the append. */
export interface TurnWrite {
  readonly truncateAfter?: string | null
  readonly includeUser: boolean
}

export function planTurn(messages: readonly Message[], turn: TurnRequest, now: Date): TurnPlan {
  const position = messages.findIndex((message) => message.id === turn.user.id)
  const stored = position >= 0 ? (messages[position] as Message) : undefined
  if (stored && stored.role !== 'user') throw badRequest('messages', 'The last message reuses the id of an answer in this conversation; give the user message its own id.', 'duplicate_id')
  if (turn.trigger === 'regenerate-message') {
    if (!stored) throw new HttpError(404, 'unknown_message', 'The message to regenerate an answer for is not in this conversation.')
    return { kind: 'regenerate', user: stored, history: messages.slice(0, position), write: { truncateAfter: stored.id, includeUser: false } }
  }
  if (stored && stored.content === turn.user.text && uiEventOf(stored) === turn.user.uiEvent) {
    if (messages[position + 1]?.status !== 'error') return { kind: 'answered', position }
    return { kind: 'regenerate', user: stored, history: messages.slice(0, position), write: { truncateAfter: stored.id, includeUser: false } }
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
  return { kind: 'edit', user, history: messages.slice(0, position), write: { truncateAfter: previous, includeUser: true } }
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

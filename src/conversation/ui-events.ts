import type { Message } from '../contract/message.js'
import type { ChatDefinition, UiEventName } from './definition.js'

/**
 * UI events (button presses, choice clicks) travel through history as user messages whose
 * metadata is `{ chatrail: { event } }`, so replay, edits and rebuilds treat them like text.
 */

/** A type alias (not an interface) so it is assignable to `Record<string, unknown>` metadata. */
export type UiEventMetadata = { chatrail: { event: string } }

/** The metadata that marks a user message as the UI event `event`. */
export function uiEventMessageMetadata(event: string): UiEventMetadata {
  return { chatrail: { event } }
}

/**
 * The UI event a user message carries, if any. Only user messages carry UI events: an answer's
 * `metadata.chatrail` is the session's decision record, whose `event` is the transition it made.
 */
export function uiEventOf(message: Pick<Message, 'metadata'> & { role?: Message['role'] }): string | undefined {
  const chatrail = (message.metadata as { chatrail?: { event?: unknown } } | undefined)?.chatrail
  const event = chatrail?.event
  if (typeof event !== 'string') return undefined
  // the role is read last: reconciliation's cost is counted in message reads
  return message.role === undefined || message.role === 'user' ? event : undefined
}

/** Anything with chatrail's `send(text, { metadata })` (see `createChatController`). */
export interface UiEventSender {
  send: (text: string, options?: { metadata?: Record<string, unknown> }) => Promise<void>
}

/**
 * Sends `event` as a user message labelled `label` (default: the event name). The controller does
 * not know the definition: name it to have the event checked, `sendUiEvent<typeof session>(…)`
 * (or `<typeof definition>`); without it any string is accepted.
 */
export function sendUiEvent<T = ChatDefinition>(controller: UiEventSender, event: UiEventName<T>, label?: string): Promise<void> {
  return controller.send(label ?? event, { metadata: uiEventMessageMetadata(event) })
}

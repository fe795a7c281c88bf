import type { Message } from '../contract/message.js'
import type { ChatRequest, ChatRequestMessage } from '../protocol/chat-request.js'

/**
 * The body `useChat`'s default transport POSTs, built from a controller's request: the chat id,
 * the history as UI messages (text parts), the trigger and, for a regenerate, the message id.
 * The server reads only the last user message (it owns history), so request-only messages
 * (system prompts, retrieved documents), tool messages and the empty streaming placeholder are
 * left out, and only a user message's UI event (`metadata.chatrail.event`, with a component
 * interaction's `interaction`) travels as metadata —
 * never an answer's decision record. Pure.
 */
export function chatRequestBody(conversationId: string, messages: readonly Message[], trigger: ChatRequest['trigger']): ChatRequest {
  const ui: ChatRequestMessage[] = []
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'tool') continue
    if (message.role === 'assistant' && message.content === '' && message.status === 'streaming') continue
    const event = message.role === 'user' ? uiEventOf(message) : undefined
    // a component interaction travels with its UI event; the server checks it against its own history
    const interaction = event === undefined ? undefined : (message.metadata as { chatrail?: { interaction?: unknown } } | undefined)?.chatrail?.interaction
    ui.push({
      id: message.id,
      role: message.role,
      parts: message.content === '' ? [] : [{ type: 'text', text: message.content }],
      ...(event === undefined ? {} : { metadata: { chatrail: interaction === undefined ? { event } : { event, interaction } } }),
    })
  }
  const last = ui.findLast((message) => message.role === 'user')
  return { id: conversationId, messages: ui, trigger, ...(trigger === 'regenerate-message' && last ? { messageId: last.id } : {}) }
}

/** The id of the last user message (what the turn answers), if any. */
export function lastUserMessage(messages: readonly Message[]): Message | undefined {
  return messages.findLast((message) => message.role === 'user')
}

function uiEventOf(message: Message): string | undefined {
  const event = (message.metadata as { chatrail?: { event?: unknown } } | undefined)?.chatrail?.event
  return typeof event === 'string' ? event : undefined
}

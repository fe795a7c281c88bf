import type { Message } from '../contract/message.js'

/**
 * Pure: the assistant replies that finished since `seen` (ids already announced, or already there
 * when the chat mounted), in order. A reply counts once it no longer streams; a chat UI reads what
 * it says once, whole, in a polite live region (its message list is `aria-live="off"`: announcing
 * the list would read every streamed chunk).
 */
export function finishedReplies(messages: readonly Message[], seen: ReadonlySet<string>): Message[] {
  return messages.filter((message) => message.role === 'assistant' && message.status !== 'streaming' && !seen.has(message.id) && message.content !== '')
}

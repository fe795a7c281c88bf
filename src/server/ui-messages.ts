import type { Message } from '../contract/message.js'

/** A stored message as the AI SDK's `UIMessage` (what `useChat` holds), for GET. */
export interface UiMessage {
  readonly id: string
  readonly role: 'system' | 'user' | 'assistant'
  readonly parts: ReadonlyArray<{ readonly type: 'text'; readonly text: string }>
}

/**
 * Stored history → UI messages. Decision records stay on the server (a client's are ignored
 * anyway); tool messages have no UI message of their own and are left out.
 */
export function toUiMessages(messages: readonly Message[]): UiMessage[] {
  const result: UiMessage[] = []
  for (const message of messages) {
    if (message.role === 'tool') continue
    result.push({ id: message.id, role: message.role, parts: message.content === '' ? [] : [{ type: 'text', text: message.content }] })
  }
  return result
}

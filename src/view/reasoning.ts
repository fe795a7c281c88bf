import type { Message } from '../contract/message.js'

/** Pure: the reasoning the controller gathered for a reply (`metadata.reasoning`), or ''. */
export function reasoningOf(message: Pick<Message, 'metadata'>): string {
  const reasoning = message.metadata?.reasoning
  return typeof reasoning === 'string' ? reasoning : ''
}

import type { AdapterRequest } from '../contract/adapter.js'
import type { ContentPart, Message } from '../contract/message.js'

/**
 * History as an adapter may see it: each component part replaced by a text part holding its
 * fallback summary, so a model never reads a component's props or key, only what a person without
 * the component would read (the message's `content` already says the same). The request itself when
 * no message holds a component (invariant 1: a miss passes the request through unchanged); only the
 * messages that hold one are copied.
 */
export function withComponentsAsText(request: AdapterRequest): AdapterRequest {
  const messages = request.messages
  let projected: Message[] | undefined
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message
    if (!message.parts?.some((part) => part.type === 'component')) continue
    projected ??= messages.slice()
    projected[index] = { ...message, parts: message.parts.map(asText) }
  }
  return projected ? { ...request, messages: projected } : request
}

const asText = (part: ContentPart): ContentPart => (part.type === 'component' ? { type: 'text', text: part.fallback.summary } : part)

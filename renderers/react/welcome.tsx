import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { MessageUIPart } from './message-ui-part.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface WelcomeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** The greeting line; default `labels.greeting` ("How can I help?"). */
  greeting?: string
  /** Labels for event chips, by UI event or machine event (as `<EventButtons>`). */
  eventLabels?: Record<string, string>
}

/**
 * The first screen: a greeting and suggestion chips for what the definition allows in the current
 * state (`suggestionsOf`; welcome-content.tsx, in the message UI chunk, which the list prefetches on
 * mount). Renders nothing once the chat has a message.
 */
export function Welcome(props: WelcomeProps): ReactNode {
  const chat = useChatFrom(props.chat, 'Welcome')
  if (chat.messages.length > 0) return null
  return <MessageUIPart fallback={null} render={(ui) => <ui.WelcomeContent {...props} chat={chat} />} />
}

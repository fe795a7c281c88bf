import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import { SuggestionChips } from './suggestion-chips.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface WelcomeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** The greeting line; default `labels.greeting` ("How can I help?"). */
  greeting?: string
  /** Labels for event chips, by UI event or machine event (as `<EventButtons>`). */
  eventLabels?: Record<string, string>
}

/**
 * The first screen (in the lazily loaded message UI chunk; `<Welcome>` in welcome.tsx resolves the
 * chat): a greeting and suggestion chips for what the definition allows in the current
 * state (suggestion-chips.tsx): a command chip sends the command, an event chip fires its UI event.
 */
export function WelcomeContent({ chat, greeting, eventLabels }: WelcomeProps & { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const words = useLabels(messageLabels)
  return (
    <div data-chatrail-welcome="">
      <p data-chatrail-greeting="">{greeting ?? words.greeting}</p>
      <SuggestionChips chat={chat} eventLabels={eventLabels} />
    </div>
  )
}

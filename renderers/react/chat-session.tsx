import type { ReactNode } from 'react'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { ChatSessionContext } from './chat-context.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { MessageList } from './message-list.js'
import { StateBadge } from './state-badge.js'
import { useChatSession } from './use-chat-session.js'
import type { UseChatSessionOptions, UseChatSessionReturn } from './use-chat-session.js'

export interface ChatSessionProps<Ctx extends JsonObject> {
  definition: ChatDefinition<Ctx>
  options?: UseChatSessionOptions<Ctx>
  /** Accessible name of the chat region; default "Chat". */
  title?: string
  placeholder?: string
  /** Display names for machine states (StateBadge) and events (EventButtons). */
  stateLabels?: Record<string, string>
  eventLabels?: Record<string, string>
  className?: string
  /** Rendered inside the chat's context, after the header: custom parts can omit `chat`. */
  children?: ReactNode
}

/**
 * A complete chat over one session: status line, message list with dialog cards, an error alert,
 * the current state's event buttons and the composer (Send / Stop / Retry / Regenerate; Edit on
 * user messages). Headless: markup and `data-chatrail-*` attributes only; see styles.css.
 */
export function ChatSession<Ctx extends JsonObject>({
  definition, options, title = 'Chat', placeholder, stateLabels, eventLabels, className, children,
}: ChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useChatSession(definition, options)
  return (
    <ChatSessionContext.Provider value={chat}>
      <section data-chatrail-chat="" data-chatrail-status={chat.status} aria-label={title} className={className}>
        <header data-chatrail-header="">
          <StateBadge chat={chat} labels={stateLabels} />
        </header>
        {children}
        <MessageList chat={chat} />
        {chat.error !== null && <p role="alert" data-chatrail-error="">{chat.error.message}</p>}
        <EventButtons chat={chat} labels={eventLabels} />
        <Composer chat={chat} placeholder={placeholder} />
      </section>
    </ChatSessionContext.Provider>
  )
}

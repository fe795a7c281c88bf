import type { ReactNode } from 'react'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { ChatSessionContext } from './chat-context.js'
import type { ComponentViews } from './component-host.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { MessageList } from './message-list.js'
import { StateBadge } from './state-badge.js'
import { useChatSession } from './use-chat-session.js'
import { Welcome } from './welcome.js'
import type { UseChatSessionOptions, UseChatSessionReturn } from './use-chat-session.js'

export interface ChatSessionProps<Ctx extends JsonObject> {
  definition: ChatDefinition<Ctx>
  options?: UseChatSessionOptions<Ctx>
  /** Name of the chat region and its (visually hidden) h2 heading; default "Chat". */
  title?: string
  /** The first screen's greeting above the suggestion chips; default "How can I help?". */
  greeting?: string
  placeholder?: string
  /** Display names for machine states (StateBadge) and events (EventButtons). */
  stateLabels?: Record<string, string>
  eventLabels?: Record<string, string>
  /** `chatrail-dark` / `chatrail-light` force a theme (see styles.css); default: the system's. */
  className?: string
  /** Views for component keys of your own registry, e.g. `{ 'order-card': OrderCardView }`. */
  componentViews?: ComponentViews
  /** Rendered inside the chat's context, after the header: custom parts can omit `chat`. */
  children?: ReactNode
}

/**
 * A complete chat over one session: a hidden h2 title, the status line, the welcome with
 * suggestion chips (first screen) or the message list with dialog cards (and an error banner at
 * its end), the
 * current state's event buttons and the composer (Send or Stop; Copy, Edit and Regenerate are on
 * the messages, Retry in the error banner). Headless: markup and `data-chatrail-*` attributes only; see styles.css.
 */
export function ChatSession<Ctx extends JsonObject>({
  definition, options, title = 'Chat', greeting, placeholder, stateLabels, eventLabels, className, children, componentViews,
}: ChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useChatSession(definition, options)
  return (
    <ChatSessionContext.Provider value={chat}>
      <section data-chatrail-chat="" data-chatrail-status={chat.status} aria-label={title} className={className}>
        <header data-chatrail-header="">
          <h2 data-chatrail-title="">{title}</h2>
          <StateBadge chat={chat} labels={stateLabels} />
        </header>
        {children}
        <Welcome chat={chat} greeting={greeting} eventLabels={eventLabels} />
        <MessageList chat={chat} componentViews={componentViews} />
        {chat.messages.length > 0 && <EventButtons chat={chat} labels={eventLabels} />}
        <Composer chat={chat} placeholder={placeholder} />
      </section>
    </ChatSessionContext.Provider>
  )
}

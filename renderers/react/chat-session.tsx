import type { ReactNode } from 'react'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { ChatSessionContext } from './chat-context.js'
import type { ComponentViews } from './component-host.js'
import { Composer } from './composer.js'
import { EventButtons } from './event-buttons.js'
import { ChatLabelsContext, entryLabels } from './labels.js'
import type { ChatLabels } from './labels.js'
import { MessageList } from './message-list.js'
import { StateBadge } from './state-badge.js'
import { useChatSession } from './use-chat-session.js'
import { Welcome } from './welcome.js'
import type { UseChatSessionOptions, UseChatSessionReturn } from './use-chat-session.js'

export interface ChatSessionProps<Ctx extends JsonObject> {
  definition: ChatDefinition<Ctx>
  options?: UseChatSessionOptions<Ctx>
  /** Name of the chat region and its (visually hidden) h2 heading; default `labels.title` ("Chat"). */
  title?: string
  /** The first screen's greeting above the suggestion chips; default `labels.greeting` ("How can I help?"). */
  greeting?: string
  /**
   * The words of the UI (buttons, accessible names, status words, errors, cards), merged over the
   * English defaults: e.g. a French `{ send: 'Envoyer', … }`. Keep the object stable (a constant).
   */
  labels?: Partial<ChatLabels>
  placeholder?: string
  /** Display names for machine states (StateBadge) and events (EventButtons); events default to the definition's `eventLabels`. */
  stateLabels?: Record<string, string>
  eventLabels?: Record<string, string>
  /** `chatrail-dark` / `chatrail-light` force a theme (see styles.css); default: the system's. */
  className?: string
  /** Views for component keys of your own registry, e.g. `{ 'order-card': OrderCardView }`. */
  componentViews?: ComponentViews
  /** Rendered inside the chat's context, after the header: custom parts can omit `chat`. */
  children?: ReactNode
}

const NO_LABELS: Partial<ChatLabels> = {}

/**
 * A complete chat over one session: a hidden h2 title, the status line, the welcome with
 * suggestion chips (first screen) or the message list with dialog cards (and an error banner at
 * its end), the
 * current state's event buttons and the composer (Send or Stop; Copy, Edit and Regenerate are on
 * the messages, Retry in the error banner). Headless: markup and `data-chatrail-*` attributes only; see styles.css.
 */
export function ChatSession<Ctx extends JsonObject>({
  definition, options, title, greeting, placeholder, stateLabels, eventLabels, className, children, componentViews, labels = NO_LABELS,
}: ChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useChatSession(definition, options)
  const name = title ?? labels.title ?? entryLabels.title
  return (
    <ChatLabelsContext value={labels}>
    <ChatSessionContext.Provider value={chat}>
      <section data-chatrail-chat="" data-chatrail-status={chat.status} aria-label={name} className={className}>
        <header data-chatrail-header="">
          <h2 data-chatrail-title="">{name}</h2>
          <StateBadge chat={chat} labels={stateLabels} />
        </header>
        {children}
        <Welcome chat={chat} greeting={greeting} eventLabels={eventLabels} />
        <MessageList chat={chat} componentViews={componentViews} />
        {chat.messages.length > 0 && <EventButtons chat={chat} labels={eventLabels} />}
        <Composer chat={chat} placeholder={placeholder} />
      </section>
    </ChatSessionContext.Provider>
    </ChatLabelsContext>
  )
}

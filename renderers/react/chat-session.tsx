import type { ReactNode } from 'react'
import type { ChatDefinition, JsonObject } from '../../src/conversation/index.js'
import { ChatFrame } from './chat-frame.js'
import type { ComponentViews } from './component-host.js'
import type { ChatLabels } from './labels.js'
import { useChatSession } from './use-chat-session.js'
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

/**
 * A complete chat over one local session: a hidden h2 title, the status line, the welcome with
 * suggestion chips or the message list with dialog cards, the event buttons and the composer
 * (chat-frame.tsx, shared with `<RemoteChatSession>`). Headless: see styles.css.
 */
export function ChatSession<Ctx extends JsonObject>({ definition, options, ...frame }: ChatSessionProps<Ctx>): ReactNode {
  const chat: UseChatSessionReturn<JsonObject> = useChatSession(definition, options)
  return <ChatFrame chat={chat} {...frame} />
}

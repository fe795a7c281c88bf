import { createContext } from './react-api.js'
import type { ReactNode } from 'react'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { JsonObject } from '../../src/conversation/index.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * What a component part's renderer gets from `<MessageList>`: the chat (its registry, its
 * history, its controller for interactions) and the app's own component views. A message's
 * actions read the chat from it too (Regenerate on the last reply, message-actions.tsx). Only a context in
 * the entry: resolving, drawing and sending live in the lazily loaded component UI chunk, which
 * reads the host from the message UI's `MessageUIHost` (`<MessageUIPart>` hands it over).
 */

/** The interaction already sent for a component (from history, or the click just made). */
export interface ComponentAnswer {
  readonly event: string
  readonly value?: unknown
}

export interface ComponentViewProps {
  readonly part: ComponentPart
  /** The props, checked by the definition's registry (`components.resolve(part)`). */
  readonly props: unknown
  /** The answer message holding the component. */
  readonly messageId: string
  /** Set once the component was interacted with (in any tab, before a reload too): draw it disabled. */
  readonly answered: ComponentAnswer | undefined
  /** Sends an interaction (`sendInteraction`); does nothing once the component is answered. */
  readonly interact: (event: string, value?: unknown, label?: string) => void
}

/** A view for a component key of your own registry, e.g. `{ 'order-card': OrderCardView }`. */
export type ComponentView = (props: ComponentViewProps) => ReactNode
export type ComponentViews = Readonly<Record<string, ComponentView>>

export interface ComponentHost {
  readonly chat: UseChatSessionReturn<JsonObject>
  readonly views: ComponentViews | undefined
}

export const ComponentHostContext = createContext<ComponentHost | null>(null)

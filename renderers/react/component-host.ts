import { createContext } from './react-api.js'
import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import type { ComponentAnswer, ComponentViewProps } from '../../src/view/component-key.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * What a component part's renderer gets from `<MessageList>`: the chat (its registry, its
 * history, its controller for interactions) and the app's own component views. A message's
 * actions read the chat from it too (Regenerate on the last reply, message-actions.tsx). Only a context in
 * the entry: resolving, drawing and sending live in the lazily loaded component UI chunk, which
 * reads the host from the message UI's `MessageUIHost` (`<MessageUIPart>` hands it over).
 */

/** The interaction already sent for a component (chatrail/view's: from history, or a click in flight). */
export type { ComponentAnswer }

/** What a component view gets (chatrail/view's, the same in every binding). */
export type { ComponentViewProps }

/** A view for a component key of your own registry, e.g. `{ 'order-card': OrderCardView }`. */
export type ComponentView = (props: ComponentViewProps) => ReactNode
export type ComponentViews = Readonly<Record<string, ComponentView>>

export interface ComponentHost {
  readonly chat: UseChatSessionReturn<JsonObject>
  readonly views: ComponentViews | undefined
}

export const ComponentHostContext = createContext<ComponentHost | null>(null)

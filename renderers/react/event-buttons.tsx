import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { eventButtonsOf, humanizeEvent } from '../../src/view/event-routes.js'
import { MessageUIPart } from './message-ui-part.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

// Re-exported: tests and the public entry import them from here.
export { eventButtonsOf, humanizeEvent }

export interface EventButtonsProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Button labels by UI event (or by machine event); default: the UI event, humanized. */
  labels?: Record<string, string>
  /** Accessible name of the group; default `labels.actions` ("Actions"). */
  label?: string
}

/**
 * The current state's events as buttons, one per eligible `eventRoute` UI event (`eventButtonsOf`),
 * each sending its UI event through history with its label as the message text; disabled while a
 * reply streams or a dialog waits. Drawn by the message UI chunk (event-buttons-content.tsx),
 * which `<MessageList>` prefetches on mount; nothing until it is in.
 */
export function EventButtons(props: EventButtonsProps): ReactNode {
  const chat = useChatFrom(props.chat, 'EventButtons')
  return <MessageUIPart fallback={null} render={(ui) => <ui.EventButtonsContent {...props} chat={chat} />} />
}

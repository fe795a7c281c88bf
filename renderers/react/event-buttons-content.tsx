import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import type { EventButtonsProps } from './event-buttons.js'
import { eventButtonsOf, humanizeEvent } from './event-routes.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The current state's events as buttons (see `eventButtonsOf`; in the lazily loaded message UI
 * chunk, `<EventButtons>` resolves the chat); each sends its UI event through history
 * (`sendEvent`) with its label as the message text. Disabled while a reply streams or a dialog waits.
 */
export function EventButtonsContent({ chat, labels, label = 'Actions' }: EventButtonsProps & { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const { snapshot, sendEvent, status, pendingDialog, session } = chat
  const buttons = eventButtonsOf(session.definition.conversation.routes, snapshot.state, snapshot.events)
  if (buttons.length === 0) return null
  const disabled = status === 'streaming' || pendingDialog !== undefined
  return (
    <div role="group" aria-label={label} data-chatrail-events="">
      {buttons.map(({ uiEvent, event }) => {
        const text = labels?.[uiEvent] ?? labels?.[event] ?? humanizeEvent(uiEvent)
        return (
          <button key={uiEvent} type="button" data-chatrail-event-button={uiEvent} disabled={disabled} onClick={() => { void sendEvent(uiEvent, text) }}>
            {text}
          </button>
        )
      })}
    </div>
  )
}

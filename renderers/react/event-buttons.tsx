import type { ReactNode } from 'react'
import type { JsonObject, Route } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface EventButtonsProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Button labels by UI event (or by machine event); default: the UI event, humanized. */
  labels?: Record<string, string>
  /** Accessible name of the group; default "Actions". */
  label?: string
}

/** Pure: `TALK_TO_HUMAN` / `talk-to-human` → "Talk to human". */
export function humanizeEvent(event: string): string {
  const words = event.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * Pure: the buttons for the current state — one per UI event of an `eventRoute` that is eligible
 * now (its machine event is one of `events`, its `states` allow `state`), in route order, each UI
 * event once. A machine event no UI event fires gets no button: clicking it could only reach the
 * agent.
 */
export function eventButtonsOf(routes: readonly Route[], state: string, events: readonly string[]): Array<{ uiEvent: string; event: string }> {
  const buttons: Array<{ uiEvent: string; event: string }> = []
  for (const route of routes) {
    if (route.kind !== 'event' || !events.includes(route.event) || (route.states !== undefined && !route.states.includes(state))) continue
    if (!buttons.some((button) => button.uiEvent === route.uiEvent)) buttons.push({ uiEvent: route.uiEvent, event: route.event })
  }
  return buttons
}

/**
 * The current state's events as buttons (see `eventButtonsOf`); each sends its UI event through
 * history (`sendEvent`) with its label as the message text. Disabled while a reply streams or a
 * dialog waits.
 */
export function EventButtons({ chat, labels, label = 'Actions' }: EventButtonsProps): ReactNode {
  const { snapshot, sendEvent, status, pendingDialog, session } = useChatFrom(chat, 'EventButtons')
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

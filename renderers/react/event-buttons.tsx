import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface EventButtonsProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Button labels by event name; default: the event name, humanized. */
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
 * The current state's events as buttons; each sends the event through history (`sendEvent`),
 * labelled with its display text. Disabled while a reply streams or a dialog waits.
 */
export function EventButtons({ chat, labels, label = 'Actions' }: EventButtonsProps): ReactNode {
  const { snapshot, sendEvent, status, pendingDialog } = useChatFrom(chat, 'EventButtons')
  if (snapshot.events.length === 0) return null
  const disabled = status === 'streaming' || pendingDialog !== undefined
  return (
    <div role="group" aria-label={label} data-chatrail-events="">
      {snapshot.events.map((event) => {
        const text = labels?.[event] ?? humanizeEvent(event)
        return (
          <button key={event} type="button" data-chatrail-event-button={event} disabled={disabled} onClick={() => { void sendEvent(event, text) }}>
            {text}
          </button>
        )
      })}
    </div>
  )
}

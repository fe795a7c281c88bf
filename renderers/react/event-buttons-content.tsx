import type { MouseEvent, ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import type { EventButtonsProps } from './event-buttons.js'
import { eventBarOf } from '../../src/view/event-bar.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import { SuggestionChips } from './suggestion-chips.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The current state's events as buttons (see `eventButtonsOf`; in the lazily loaded message UI
 * chunk, `<EventButtons>` resolves the chat); each sends its UI event through history
 * (`sendEvent`) with its label as the message text. Disabled while a reply streams or a dialog waits.
 *
 * After a final state it is the end of the conversation: a note and, when the state offers one
 * (`snapshot.restart`), a Start over button that sends the restart UI event. Right after a
 * restart it shows the initial state's suggestion chips again (commands and events, as on the
 * first screen), like a new chat, with the earlier conversation still above.
 */
export function EventButtonsContent({ chat, labels, label }: EventButtonsProps & { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const words = useLabels(messageLabels)
  const { snapshot, sendEvent, session, traces, ui } = chat
  // what the bar shows is the view's (chatrail/view `eventBarOf`), with this component's own labels
  const bar = eventBarOf({ definition: session.definition, snapshot, traces, disabled: ui.busy, eventLabels: labels, startOver: words.startOver })
  const { disabled, restart } = bar
  if (bar.mode === 'restarted') {
    return (
      <div data-chatrail-events="" data-chatrail-restarted="">
        <SuggestionChips chat={chat} eventLabels={labels} disabled={disabled} />
      </div>
    )
  }
  const eventButtons = bar.buttons.map(({ uiEvent, label: text }) => (
    <button key={uiEvent} type="button" data-chatrail-event-button={uiEvent} disabled={disabled} onClick={() => { void sendEvent(uiEvent, text) }}>
      {text}
    </button>
  ))
  if (bar.mode === 'end') {
    const startOver = (event: MouseEvent<HTMLButtonElement>): void => {
      if (restart === undefined) return
      // The button leaves with the final state: the focus goes where the next message is typed.
      event.currentTarget.closest('[data-chatrail-chat]')?.querySelector<HTMLElement>('[data-chatrail-input]')?.focus()
      void sendEvent(restart.uiEvent, restart.label)
    }
    return (
      <div role="group" aria-label={words.conversationEnded} data-chatrail-events="" data-chatrail-end="">
        <p data-chatrail-end-note="">{words.endNote}</p>
        {restart !== undefined && (
          <button type="button" data-chatrail-start-over="" data-chatrail-event-button={restart.uiEvent} disabled={disabled} onClick={startOver}>
            {restart.label}
          </button>
        )}
        {eventButtons}
      </div>
    )
  }
  if (bar.buttons.length === 0) return null
  return <div role="group" aria-label={label ?? words.actions} data-chatrail-events="">{eventButtons}</div>
}

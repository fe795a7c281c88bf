import type { MouseEvent, ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { labelledSuggestionsOf } from '../../src/view/event-bar.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

interface SuggestionChipsProps {
  chat: UseChatSessionReturn<JsonObject>
  /** Labels for event chips, by UI event or machine event (as `<EventButtons>`). */
  eventLabels?: Record<string, string> | undefined
  /** Disables the chips (a reply streams). */
  disabled?: boolean
}

/**
 * The suggestion chips for the current state (`suggestionsOf`, in the message UI chunk): a command
 * chip sends the command, an event chip fires its UI event. The welcome shows them on the first
 * screen, the event bar again right after a Start over.
 */
export function SuggestionChips({ chat, eventLabels, disabled = false }: SuggestionChipsProps): ReactNode {
  const { snapshot, session, send, sendEvent } = chat
  const words = useLabels(messageLabels)
  // the chips and their labels are the view's (chatrail/view `labelledSuggestionsOf`), with this component's own labels
  const suggestions = labelledSuggestionsOf({ definition: session.definition, snapshot, eventLabels })
  if (suggestions.length === 0) return null
  return (
    <ul data-chatrail-suggestions="" aria-label={words.suggestions}>
      {suggestions.map((suggestion) => {
        const { label } = suggestion
        const act = (event: MouseEvent<HTMLButtonElement>): void => {
          // The chips leave with the first screen: the focus goes where the next message is typed.
          event.currentTarget.closest('[data-chatrail-chat]')?.querySelector<HTMLElement>('[data-chatrail-input]')?.focus()
          void (suggestion.kind === 'command' ? send(suggestion.text) : sendEvent(suggestion.uiEvent, label))
        }
        return (
          <li key={`${suggestion.kind}:${label}`}>
            <button type="button" data-chatrail-suggestion={suggestion.kind} disabled={disabled} onClick={act}>
              <span data-chatrail-suggestion-label="">{label}</span>
              {suggestion.description !== undefined && <span data-chatrail-suggestion-description="">{suggestion.description}</span>}
            </button>
          </li>
        )
      })}
    </ul>
  )
}

import type { MouseEvent, ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { eventLabelOf } from '../../src/view/event-label.js'
import { useLabels, useMessageUIKit } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import { suggestionsOf } from '../../src/view/suggestions.js'
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
  const kit = useMessageUIKit()
  const { routes, eventLabels: definitionLabels } = session.definition.conversation
  const suggestions = suggestionsOf(routes, snapshot.state, snapshot.events, kit.eventButtonsOf)
  if (suggestions.length === 0) return null
  return (
    <ul data-chatrail-suggestions="" aria-label={words.suggestions}>
      {suggestions.map((suggestion) => {
        const label = suggestion.kind === 'command'
          ? suggestion.text
          : eventLabelOf(suggestion.uiEvent, suggestion.event, eventLabels, definitionLabels, kit.humanizeEvent(suggestion.uiEvent))
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

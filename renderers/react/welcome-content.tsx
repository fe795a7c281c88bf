import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { humanizeEvent } from './event-routes.js'
import { suggestionsOf } from './suggestions.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface WelcomeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** The greeting line; default "How can I help?". */
  greeting?: string
  /** Labels for event chips, by UI event or machine event (as `<EventButtons>`). */
  eventLabels?: Record<string, string>
}

/**
 * The first screen (in the lazily loaded message UI chunk; `<Welcome>` in welcome.tsx resolves the
 * chat): a greeting and suggestion chips for what the definition allows in the current
 * state (`suggestionsOf`): a command chip sends the command, an event chip fires its UI event.
 */
export function WelcomeContent({ chat, greeting = 'How can I help?', eventLabels }: WelcomeProps & { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const { snapshot, session, send, sendEvent } = chat
  const suggestions = suggestionsOf(session.definition.conversation.routes, snapshot.state, snapshot.events)
  return (
    <div data-chatrail-welcome="">
      <p data-chatrail-greeting="">{greeting}</p>
      {suggestions.length > 0 && (
        <ul data-chatrail-suggestions="" aria-label="Suggestions">
          {suggestions.map((suggestion) => {
            const label = suggestion.kind === 'command'
              ? suggestion.text
              : eventLabels?.[suggestion.uiEvent] ?? eventLabels?.[suggestion.event] ?? humanizeEvent(suggestion.uiEvent)
            const act = (): void => { void (suggestion.kind === 'command' ? send(suggestion.text) : sendEvent(suggestion.uiEvent, label)) }
            return (
              <li key={`${suggestion.kind}:${label}`}>
                <button type="button" data-chatrail-suggestion={suggestion.kind} onClick={act}>
                  <span data-chatrail-suggestion-label="">{label}</span>
                  {suggestion.description !== undefined && <span data-chatrail-suggestion-description="">{suggestion.description}</span>}
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}

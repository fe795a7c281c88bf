import type { ChatDefinition, JsonObject, SessionSnapshot, TurnTrace } from '../conversation/index.js'
import { eventLabelOf } from './event-label.js'
import { eventButtonsOf, humanizeEvent } from './event-routes.js'
import { messageLabels } from './message-labels.js'
import { suggestionsOf } from './suggestions.js'
import type { Suggestion } from './suggestions.js'

/** A button that fires a UI event, with what it says. */
export interface EventButton {
  readonly uiEvent: string
  readonly event: string
  readonly label: string
}

/** A suggestion chip with what it says: a command's text, an event's label. */
export type LabelledSuggestion = Suggestion & { readonly label: string }

/**
 * What the bar under the messages shows for the current state:
 * - `buttons`: the state's event buttons (`eventButtonsOf`), none when the state offers none;
 * - `end`: a final state: the end note, a Start over button (`restart`) when the state offers one,
 *   and any other event buttons;
 * - `restarted`: right after a restart, the initial state's suggestion chips again, like a new chat.
 * `disabled` while a reply streams or a dialog waits.
 */
export interface EventBar {
  readonly mode: 'buttons' | 'end' | 'restarted'
  readonly buttons: readonly EventButton[]
  readonly restart: EventButton | undefined
  readonly suggestions: readonly LabelledSuggestion[]
  readonly disabled: boolean
}

export interface EventBarInput<Ctx extends JsonObject = JsonObject> {
  readonly definition: Pick<ChatDefinition<Ctx>, 'conversation'>
  readonly snapshot: SessionSnapshot<Ctx>
  readonly traces: readonly TurnTrace[]
  /** Nothing is clickable: a reply streams or a dialog waits. */
  readonly disabled: boolean
  /** The app's labels by UI event, then machine event (before the definition's `eventLabels`). */
  readonly eventLabels?: Readonly<Record<string, string>> | undefined
  /** What Start over says when no label names the restart event. */
  readonly startOver?: string
}

/** Pure: the suggestion chips of the current state (`suggestionsOf`), each with its label. */
export function labelledSuggestionsOf(input: Omit<EventBarInput, 'traces' | 'disabled' | 'startOver'>): LabelledSuggestion[] {
  const { routes, eventLabels } = input.definition.conversation
  return suggestionsOf(routes, input.snapshot.state, input.snapshot.events, eventButtonsOf).map((suggestion) => ({
    ...suggestion,
    label: suggestion.kind === 'command' ? suggestion.text : eventLabelOf(suggestion.uiEvent, suggestion.event, input.eventLabels, eventLabels, humanizeEvent(suggestion.uiEvent)),
  }))
}

/** Pure: the event bar for the current state (see `EventBar`). */
export function eventBarOf(input: EventBarInput): EventBar {
  const { snapshot, traces, disabled } = input
  const { routes, eventLabels } = input.definition.conversation
  const last = traces.at(-1)
  if (!snapshot.final && last?.reason === 'restart' && last.toState === snapshot.state) {
    return { mode: 'restarted', buttons: [], restart: undefined, suggestions: labelledSuggestionsOf(input), disabled }
  }
  const restartEvent = snapshot.final ? snapshot.restart : undefined
  const buttons = eventButtonsOf(routes, snapshot.state, snapshot.events)
    .filter(({ uiEvent }) => uiEvent !== restartEvent)
    .map(({ uiEvent, event }) => ({ uiEvent, event, label: eventLabelOf(uiEvent, event, input.eventLabels, eventLabels, humanizeEvent(uiEvent)) }))
  const restart = restartEvent === undefined ? undefined : { uiEvent: restartEvent, event: restartEvent, label: eventLabelOf(restartEvent, undefined, input.eventLabels, eventLabels, input.startOver ?? messageLabels.startOver) }
  return { mode: snapshot.final ? 'end' : 'buttons', buttons, restart, suggestions: [], disabled }
}

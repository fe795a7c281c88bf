import type { Route } from '../conversation/index.js'
import type { eventButtonsOf } from './event-routes.js'

/** What the user can say now: a command to send as text, or a UI event to fire. */
export type Suggestion =
  | { kind: 'command'; text: string; description?: string }
  | { kind: 'event'; uiEvent: string; event: string; description?: string }

/**
 * Pure: the suggestions for `state`, from the definition itself (no other chat UI knows what the
 * user can say): every `commandRoute` whose machine event is allowed now (`events`, and its
 * `states` if it names some), then every eligible `eventRoute` UI event (`eventButtonsOf`), in
 * route order, each command and UI event once, with the route's `description`. A command whose
 * machine event a UI event's chip fires is left out: `/human` beside an "escalate" button would be
 * two chips for one thing (issue #31 item 12), and the button is the one the app labelled.
 * `buttonsOf`: event-routes.ts's `eventButtonsOf`, handed in (the entry's, message-ui-context.ts).
 */
export function suggestionsOf(routes: readonly Route[], state: string, events: readonly string[], buttonsOf: typeof eventButtonsOf): Suggestion[] {
  const buttons = buttonsOf(routes, state, events)
  const buttonEvents = new Set(buttons.map(({ event }) => event))
  const commands: Suggestion[] = []
  for (const route of routes) {
    if (route.kind !== 'command' || (route.event !== undefined && buttonEvents.has(route.event)) || (route.event !== undefined && !events.includes(route.event)) || (route.states !== undefined && !route.states.includes(state))) continue
    if (!commands.some((known) => known.kind === 'command' && known.text === route.command)) {
      commands.push({ kind: 'command', text: route.command, ...(route.description === undefined ? {} : { description: route.description }) })
    }
  }
  const described = (uiEvent: string): string | undefined =>
    routes.find((route) => route.kind === 'event' && route.uiEvent === uiEvent)?.description
  return [
    ...commands,
    ...buttons.map(({ uiEvent, event }): Suggestion => {
      const description = described(uiEvent)
      return { kind: 'event', uiEvent, event, ...(description === undefined ? {} : { description }) }
    }),
  ]
}

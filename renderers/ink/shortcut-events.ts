import type { ChatDefinition, JsonObject } from '../../src/index.js'

/**
 * The current state's events that a shortcut can send: those the definition answers as a UI
 * event (an `eventRoute` whose `uiEvent` is the event's name, allowed in this state). Any other
 * event would arrive as plain text, match no route and go to the agent, so it gets no key; it is
 * reached by typing what its route matches. Pure; keeps the state's declaration order.
 */
export function shortcutEvents<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  state: string,
  events: readonly string[],
): string[] {
  const routes = definition.conversation.routes
  return events.filter((event) =>
    routes.some((route) => route.kind === 'event' && route.uiEvent === event && (route.states === undefined || route.states.includes(state))),
  )
}

import type { Route } from '../../src/conversation/index.js'

/** Pure: `TALK_TO_HUMAN` / `talk-to-human` / `talkToHuman` → "Talk to human". */
export function humanizeEvent(event: string): string {
  const words = event.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim().toLowerCase()
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

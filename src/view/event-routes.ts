import type { Route } from '../conversation/index.js'

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
    // A reply-only or restart route (no `event`) is eligible wherever its `states` allow.
    if (route.kind !== 'event' || (route.event !== undefined && !events.includes(route.event)) || (route.states !== undefined && !route.states.includes(state))) continue
    if (!buttons.some((button) => button.uiEvent === route.uiEvent)) buttons.push({ uiEvent: route.uiEvent, event: route.event ?? route.uiEvent })
  }
  return buttons
}

/**
 * Pure: the UI event of the first restart `eventRoute` (`restart: true`) whose `states` allow
 * `state` — what a session's `getSnapshot().restart` says. For snapshots built elsewhere that do
 * not carry it (the remote binding mirrors the server's `data-chatrail` part, which has no `restart`).
 */
export function restartEventOf(routes: readonly Route[], state: string): string | undefined {
  for (const route of routes) {
    if (route.kind === 'event' && route.restart === true && (route.states === undefined || route.states.includes(state))) return route.uiEvent
  }
  return undefined
}

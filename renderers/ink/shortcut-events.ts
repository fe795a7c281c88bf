import type { ChatDefinition, JsonObject } from '../../src/index.js'

/** One event a key can send: the UI event an `eventRoute` answers, the machine event it fires, and what the key says. */
export interface EventShortcut {
  uiEvent: string
  event: string
  label: string
}

/** Pure: `TALK_TO_HUMAN` / `talk-to-human` / `talkToHuman` → "Talk to human". */
export function humanizeEventName(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').trim().toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * The events a shortcut can send now: one per UI event of an `eventRoute` that is eligible in
 * this state (its machine event is one of `events`, its `states` allow `state`), in route order,
 * each UI event once, so a UI event named differently from its machine event (`standard` for
 * `chooseDelivery`) gets its key too. A machine event that no UI event fires gets no key: it
 * would arrive as plain text, match no route and go to the agent; it is reached by typing what
 * its route matches. Labels come from `labels` (by UI event, then machine event), else the UI
 * event humanized. Pure.
 */
export function shortcutEvents<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  state: string,
  events: readonly string[],
  labels: Readonly<Record<string, string>> = {},
): EventShortcut[] {
  const shortcuts: EventShortcut[] = []
  for (const route of definition.conversation.routes) {
    if (route.kind !== 'event' || !events.includes(route.event) || (route.states !== undefined && !route.states.includes(state))) continue
    if (shortcuts.some((shortcut) => shortcut.uiEvent === route.uiEvent)) continue
    shortcuts.push({ uiEvent: route.uiEvent, event: route.event, label: labels[route.uiEvent] ?? labels[route.event] ?? humanizeEventName(route.uiEvent) })
  }
  return shortcuts
}

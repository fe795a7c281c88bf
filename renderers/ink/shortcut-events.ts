import type { ChatDefinition, JsonObject } from '../../src/index.js'
// The same eligibility rule and wording as the React buttons: one pure module, no React in it.
import { eventButtonsOf, humanizeEvent } from '../react/event-routes.js'

/** One event a key can send: the UI event an `eventRoute` answers, the machine event it fires, and what the key says. */
export interface EventShortcut {
  uiEvent: string
  event: string
  label: string
}

/** Pure: `TALK_TO_HUMAN` / `talk-to-human` / `talkToHuman` → "Talk to human" (the React buttons' wording). */
export const humanizeEventName = humanizeEvent

/**
 * The events a shortcut can send now: one per UI event of an `eventRoute` that is eligible in
 * this state (`eventButtonsOf`: its machine event is one of `events`, its `states` allow `state`),
 * in route order, each UI event once, so a UI event named differently from its machine event
 * (`standard` for `chooseDelivery`) gets its key too. A machine event that no UI event fires gets
 * no key: it would arrive as plain text, match no route and go to the agent; it is reached by
 * typing what its route matches. Labels come from `labels` (by UI event, then machine event),
 * else the UI event humanized. Pure.
 */
export function shortcutEvents<Ctx extends JsonObject>(
  definition: ChatDefinition<Ctx>,
  state: string,
  events: readonly string[],
  labels: Readonly<Record<string, string>> = {},
): EventShortcut[] {
  return eventButtonsOf(definition.conversation.routes, state, events).map(({ uiEvent, event }) => ({
    uiEvent,
    event,
    label: labels[uiEvent] ?? labels[event] ?? humanizeEvent(uiEvent),
  }))
}

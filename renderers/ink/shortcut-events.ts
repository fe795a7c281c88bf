import type { ChatDefinition, JsonObject } from '../../src/index.js'
// The same eligibility rule and wording as every renderer's buttons: chatrail/view's, no React in it.
import type { EventBar } from '../../src/view/event-bar.js'
import { eventLabelOf } from '../../src/view/event-label.js'
import { eventButtonsOf, humanizeEvent } from '../../src/view/event-routes.js'

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
 * else the definition's `conversation.eventLabels` (the same order), else the UI event humanized. Pure.
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
    label: eventLabelOf(uiEvent, event, labels, definition.conversation.eventLabels, humanizeEvent(uiEvent)),
  }))
}

/**
 * Pure: the keys for what the bar under the messages offers (chatrail/view's `eventBarOf`, the
 * rule and the labels every renderer's buttons follow): at the end of a conversation Start over
 * first (always Alt+1), then the other events; right after a restart, the events among the chips;
 * else the state's event buttons.
 */
export function shortcutsOfBar(bar: EventBar): EventShortcut[] {
  if (bar.mode === 'restarted') {
    return bar.suggestions.flatMap((chip) => (chip.kind === 'event' ? [{ uiEvent: chip.uiEvent, event: chip.event, label: chip.label }] : []))
  }
  const buttons = bar.buttons.map(({ uiEvent, event, label }) => ({ uiEvent, event, label }))
  return bar.restart === undefined ? buttons : [{ ...bar.restart }, ...buttons]
}

/**
 * Pure: the keys at the end of a conversation. `restart` is the snapshot's restart UI event (the
 * Start over a final state offers); its shortcut comes first, so Start over is always Alt+1, and
 * is labelled `labels[restart]` or "Start over" (not the UI event's name). Without `restart`,
 * `shortcuts` as they are.
 */
export function withStartOver(
  shortcuts: readonly EventShortcut[],
  restart: string | undefined,
  labels: Readonly<Record<string, string>> = {},
): EventShortcut[] {
  if (restart === undefined) return [...shortcuts]
  const found = shortcuts.find((shortcut) => shortcut.uiEvent === restart)
  const startOver: EventShortcut = { uiEvent: restart, event: found?.event ?? restart, label: labels[restart] ?? 'Start over' }
  return [startOver, ...shortcuts.filter((shortcut) => shortcut.uiEvent !== restart)]
}

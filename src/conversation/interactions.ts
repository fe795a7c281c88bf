import type { ComponentPart } from '../contract/component-part.js'
import type { UiEventSender } from './ui-events.js'

/**
 * An interaction with a component (a choice picked, a button pressed, a form sent) travels as a
 * user message, as a UI event does: `metadata.chatrail = { event, interaction }`. So it is in the
 * history, which the store keeps and every tab and instance shares: a component answered once is
 * answered for all of them, after a reload too, and the session refuses a second interaction with
 * the same component (same answer message, same instance) whatever sent it.
 *
 * The UI event is what routes see: for an event whose value is an id (a choice, a button), the id
 * itself (`eventRoute({ uiEvent: 'reship' })` answers the "reship" choice); for any other event,
 * its name (`confirm`, `submit`, …). An interaction no route takes reaches the agent as its label,
 * like typed text.
 */
export interface Interaction {
  /** The answer message holding the component. */
  readonly messageId: string
  readonly instanceId: string
  readonly componentKey: string
  /** The component's event (`select`, `press`, `submit`, …). */
  readonly event: string
  readonly value?: unknown
}

export type InteractionMetadata = { chatrail: { event: string; interaction: Interaction } }

export interface InteractionInput {
  readonly messageId: string
  readonly part: ComponentPart
  readonly event: string
  readonly value?: unknown
  /** The user message's text (default: the chosen option's label, else the event's name). */
  readonly label?: string
}

/** The UI event an interaction stands for (see above). */
export function interactionUiEvent(event: string, value: unknown): string {
  // an id is letters, digits and `. _ : -` (no `/`): a URL value (a link opened) is never one
  return typeof value === 'string' && /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(value) ? value : event
}

/** Sends an interaction with `part` (in the answer `messageId`) as a user message. */
export function sendInteraction(controller: UiEventSender, input: InteractionInput): Promise<void> {
  const { messageId, part, event, value } = input
  const interaction: Interaction = { messageId, instanceId: part.instanceId, componentKey: part.componentKey, event, ...(value === undefined ? {} : { value }) }
  const metadata: InteractionMetadata = { chatrail: { event: interactionUiEvent(event, value), interaction } }
  return controller.send(input.label ?? defaultLabel(part, event, value), { metadata })
}

/** A choice's or a button's label when the value names one; else the event's name. */
function defaultLabel(part: ComponentPart, event: string, value: unknown): string {
  const props = part.props as { choices?: unknown; buttons?: unknown } | null
  for (const list of [props?.choices, props?.buttons]) {
    if (!Array.isArray(list)) continue
    const found = (list as { id?: unknown; label?: unknown }[]).find((item) => item.id === value)
    if (typeof found?.label === 'string') return found.label
  }
  return event
}

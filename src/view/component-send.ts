import type { ComponentCatalog, ComponentPart } from '../contract/component-part.js'
import type { Message } from '../contract/message.js'
import { sendInteraction } from '../conversation/interactions.js'
import type { UiEventSender } from '../conversation/ui-events.js'
import { componentAnswersOf } from './component-answers.js'
import type { ComponentAnswer } from './component-key.js'

/** A click the view marked in flight (`clicks` holds `key`), to send once. */
export interface ComponentClick {
  readonly controller: UiEventSender & { getState: () => { messages: readonly Message[] } }
  readonly catalog: ComponentCatalog | undefined
  /** The clicks in flight of every view over the binding; this one's key is in it. */
  readonly clicks: Map<string, ComponentAnswer>
  readonly key: string
  readonly messageId: string
  readonly part: ComponentPart
  readonly event: string
  readonly value?: unknown
  readonly label?: string | undefined
}

/**
 * Sends the interaction of a click marked in flight, unless history answers the component
 * already (then it unmarks it: false, nothing sent). Once sent, history holds it (the session took
 * it) and the mark goes; a click the session refused stays marked, so it is not sent again. Part of
 * the component rules (component-kit.ts): a chat without components never loads it.
 */
export async function sendComponentClick(click: ComponentClick): Promise<boolean> {
  const { controller, catalog, clicks, key, messageId, part, event, value, label } = click
  const answered = (): boolean => componentAnswersOf(controller.getState().messages, catalog).has(key)
  if (answered()) {
    clicks.delete(key)
    return false
  }
  await sendInteraction(controller, { messageId, part, event, ...(value === undefined ? {} : { value }), ...(label === undefined ? {} : { label }) })
  if (answered()) clicks.delete(key)
  return true
}

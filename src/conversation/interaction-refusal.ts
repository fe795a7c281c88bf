import type { ComponentCatalog } from '../contract/component-part.js'
import type { HistoryView } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import { interactionOf, interactionRefusal, type ComponentPartCheck, type InteractionRefusal } from './interaction-rules.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import type { Answer } from './resolution.js'

/**
 * A component interaction refused by the component's own terms (interaction-rules.ts: a repeat, a
 * component no earlier answer holds, a value it does not offer), as the turn answers it. Loaded by
 * the turn on the first interaction it meets, so a definition without components never ships it.
 */

const REFUSAL_TEXT: Record<InteractionRefusal, string> = {
  'interaction-repeated': 'That was already answered.',
  'interaction-unknown-component': 'That option is no longer available.',
  'interaction-invalid': 'That option is not available.',
}

/** The answer to `message`'s interaction when it is refused (a fixed answer, no transition, no model call), else undefined. */
export function refusedInteraction<Ctx extends JsonObject>(
  history: HistoryView,
  message: Message,
  catalog: ComponentCatalog | undefined,
  before: MachineState<Ctx>,
  isComponentPart: ComponentPartCheck,
): Answer<Ctx> | undefined {
  const interaction = interactionOf(message)
  const reason = interaction && interactionRefusal(history, message, interaction, catalog, isComponentPart)
  if (!reason) return undefined
  return { type: 'match', route: undefined, event: undefined, after: before, assign: undefined, chunks: [Object.freeze({ type: 'text', content: REFUSAL_TEXT[reason] })], outcome: 'refused', reason }
}

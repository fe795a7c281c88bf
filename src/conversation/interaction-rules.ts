import type { ComponentCatalog, ComponentPart } from '../contract/component-part.js'
import type { HistoryView } from '../contract/history-view.js'
import type { Message } from '../contract/message.js'
import type { Interaction } from './interactions.js'

/**
 * Judging interactions against a history (see interactions.ts), with the check that a part is a
 * well-formed component part handed in: the turn loads this on the first interaction it meets
 * (interaction-refusal.ts) and hands it the check its own chunk holds (contract/component-chunk.ts),
 * so the lazy chunk shares no module with the app's entry (a shared one would be a gzip stream of
 * its own in every app's initial load, issue 32). interaction-judge.ts binds the check for renderers.
 */

/** `isComponentPart` (contract/component-chunk.ts). */
export type ComponentPartCheck = (value: unknown) => value is ComponentPart

/** The interaction a user message carries, when it carries a well-formed one. */
export function interactionOf(message: Pick<Message, 'role' | 'metadata'>): Interaction | undefined {
  if (message.role !== 'user') return undefined
  const candidate = (message.metadata as { chatrail?: { interaction?: unknown } } | undefined)?.chatrail?.interaction
  if (typeof candidate !== 'object' || candidate === null) return undefined
  const { messageId, instanceId, componentKey, event } = candidate as Record<string, unknown>
  if (typeof messageId !== 'string' || typeof instanceId !== 'string' || typeof componentKey !== 'string' || typeof event !== 'string') return undefined
  return candidate as Interaction
}

const keyOf = (messageId: string, instanceId: string): string => `${messageId}:${instanceId}`

export type InteractionRefusal = 'interaction-repeated' | 'interaction-unknown-component' | 'interaction-invalid'

/**
 * Walks `history` up to (not including) `stop`, keeping the components each answer showed and
 * the key of every interaction that stood: its component was in an earlier answer, the
 * registry (when there is one) accepts its event and value, and no earlier interaction with that
 * component stood. A refused interaction changes nothing, so it does not use the component up.
 */
export function walk(history: HistoryView, catalog: ComponentCatalog | undefined, isComponentPart: ComponentPartCheck, stop?: string): { parts: Map<string, ComponentPart>; answered: Set<string> } {
  const parts = new Map<string, ComponentPart>()
  const answered = new Set<string>()
  for (let index = 0; index < history.length; index += 1) {
    const message = history.at(index)
    if (message === undefined || message.id === stop) break
    if (message.role === 'assistant') {
      for (const part of message.parts ?? []) if (isComponentPart(part)) parts.set(keyOf(message.id, part.instanceId), part)
      continue
    }
    const interaction = interactionOf(message)
    if (interaction && judge(interaction, parts, answered, catalog) === undefined) answered.add(keyOf(interaction.messageId, interaction.instanceId))
  }
  return { parts, answered }
}

function judge(interaction: Interaction, parts: ReadonlyMap<string, ComponentPart>, answered: ReadonlySet<string>, catalog: ComponentCatalog | undefined): InteractionRefusal | undefined {
  const key = keyOf(interaction.messageId, interaction.instanceId)
  const part = parts.get(key)
  if (!part || part.componentKey !== interaction.componentKey) return 'interaction-unknown-component'
  if (answered.has(key)) return 'interaction-repeated'
  if (catalog?.interactUnknown && !catalog.interactUnknown(part, interaction.event, interaction.value).ok) return 'interaction-invalid'
  return undefined
}

/**
 * Why the session refuses `interaction` (carried by the last user message, `message`), or
 * undefined when it stands: its component must be in an earlier answer of this history (not in
 * what a client says it showed), no earlier interaction with it may have stood, and, when the
 * definition names its registry, the event and value must be ones the component offers.
 */
export function interactionRefusal(history: HistoryView, message: Message, interaction: Interaction, catalog: ComponentCatalog | undefined, isComponentPart: ComponentPartCheck): InteractionRefusal | undefined {
  const { parts, answered } = walk(history, catalog, isComponentPart, message.id)
  return judge(interaction, parts, answered, catalog)
}

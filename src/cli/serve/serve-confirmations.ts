import type { ChatDefinition } from '../../index.js'
import type { ConversationStore } from '../../store/index.js'

/**
 * Whether `chatrail serve` serves the confirmation endpoints, and for which tools: when the
 * definition declares tools that require confirmation (`requiresConfirmation: true` with
 * `execute`) and the store keeps confirmation records (every chatrail store does). A model's call
 * to such a tool then waits as a confirmation record (src/server/tool-confirmations.ts), and the
 * page binds its approval cards to the records (`ServePageConfig.confirmations`): approving one in
 * two tabs, or in a tab and through the chat, runs the call once.
 */
export function servedConfirmations(definition: ChatDefinition, store: ConversationStore): readonly string[] {
  if (!store.saveConfirmation || !store.loadConfirmation || !store.listConfirmations) return []
  return (definition.chat.tools ?? []).filter((tool) => tool.requiresConfirmation === true && tool.execute !== undefined).map((tool) => tool.name)
}

import { throwIfIssues } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput } from './definition.js'
import { validateDefinition } from './definition-schema.js'
import { deepFreeze } from './json.js'
import type { JsonObject } from './json.js'

const validated = new WeakSet<object>()

/**
 * Validates a definition and returns it typed and frozen (the `chat` reference is kept as is).
 * Throws `ChatrailConfigError` listing every issue, each with its path and a fix.
 */
export function defineChat<Ctx extends JsonObject = JsonObject>(definition: ChatDefinitionInput<Ctx>): ChatDefinition<Ctx> {
  if (validated.has(definition)) return definition as ChatDefinition<Ctx>
  throwIfIssues(validateDefinition(definition))
  const conversation = definition.conversation
  const result: ChatDefinition<Ctx> = Object.freeze({
    id: definition.id,
    revision: definition.revision ?? 1,
    chat: definition.chat,
    conversation: Object.freeze({
      ...conversation,
      context: deepFreeze(structuredClone(conversation.context ?? ({} as Ctx))),
      routes: Object.freeze([...conversation.routes]),
    }),
  })
  validated.add(result)
  return result
}

/** True for a value `defineChat` returned (so sessions skip validating it again). */
export function isDefinedChat(value: object): boolean {
  return validated.has(value)
}

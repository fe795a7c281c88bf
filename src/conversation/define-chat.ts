import { throwIfIssues } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput } from './definition.js'
import { validateDefinition } from './definition-schema.js'
import { deepFreeze } from './json.js'
import { withConversation } from './plain-conversation.js'
import { rememberPositions } from './route-index.js'
import type { JsonObject } from './json.js'

const validated = new WeakSet<object>()

/** `defineChat` with the context type fixed (what `defineChat<Ctx>()` returns): names are still inferred. */
export type DefineChatWithContext<Ctx extends JsonObject> = <const S extends string = string, const E extends string = string, const U extends string = string>(
  definition: ChatDefinitionInput<Ctx, S, E, U>,
) => ChatDefinition<Ctx, { state: S; event: E; uiEvent: U }>

/**
 * Validates a definition and returns it typed and frozen (the `chat` reference is kept as is).
 * Throws `ChatrailConfigError` listing every issue, each with its path and a fix.
 *
 * Types: the state, event and UI-event names are inferred from the literal, so a misspelt target,
 * route event or route state does not compile (docs/conversation.md § Typed names).
 *
 * **`defineChat<Ctx>(definition)` checks no names**: TypeScript infers no type argument once one
 * is given (and has no partial inference), so every name is then a `string` and a misspelt target,
 * `initial` or route event compiles; only the run-time validation and `lintDefinition` catch it.
 * Write `defineChat<Ctx>()(definition)`: it fixes the context type and still infers the names.
 */
export function defineChat<Ctx extends JsonObject>(): DefineChatWithContext<Ctx>
export function defineChat<Ctx extends JsonObject = JsonObject, const S extends string = string, const E extends string = string, const U extends string = string>(
  definition: ChatDefinitionInput<Ctx, S, E, U>,
): ChatDefinition<Ctx, { state: S; event: E; uiEvent: U }>
export function defineChat<Ctx extends JsonObject>(definition?: ChatDefinitionInput<Ctx>): ChatDefinition<Ctx> | DefineChatWithContext<Ctx> {
  // `defineChat<Ctx>()`: the curried form exists for the types only (see above).
  if (definition === undefined) return defineChat
  if (validated.has(definition)) return definition as ChatDefinition<Ctx>
  const input = withConversation(definition)
  const positions = new Map<string, number>()
  throwIfIssues(validateDefinition(input, positions))
  const conversation = input.conversation
  const routes = Object.freeze([...conversation.routes])
  // validation hashed every route id already: the route index takes that map instead of building its own
  rememberPositions(routes, positions)
  const result: ChatDefinition<Ctx> = Object.freeze({
    id: definition.id,
    revision: definition.revision ?? 1,
    chat: definition.chat,
    conversation: Object.freeze({
      ...conversation,
      context: deepFreeze(structuredClone(conversation.context ?? ({} as Ctx))),
      routes,
    }),
    ...(definition.components === undefined ? {} : { components: definition.components }),
    ...(definition.theme === undefined ? {} : { theme: definition.theme }),
  })
  validated.add(result)
  return result
}

/** True for a value `defineChat` returned (so sessions skip validating it again). */
export function isDefinedChat(value: object): boolean {
  return validated.has(value)
}

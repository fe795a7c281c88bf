import { ChatrailConfigError, configIssue } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput, ConversationDefinition } from './definition.js'
import { checkDefinition, markValid } from './definition-check.js'
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
 * What a production `defineChat` still checks (the full check is left out there): the few facts
 * without which building the definition or its first session would crash with a TypeError that
 * names nothing. Cheap and dependency-free, so it stays in every bundle (≈ 0.2 kB gzip).
 */
function runnable(input: ChatDefinitionInput): boolean {
  const conversation = input.conversation as Partial<ConversationDefinition> | null
  const states = conversation?.states as Record<string, unknown> | null | undefined
  return (
    typeof input.id === 'string' &&
    typeof input.chat === 'object' &&
    input.chat !== null &&
    typeof states === 'object' &&
    states !== null &&
    typeof (states[conversation?.initial as string] ?? 0) === 'object' &&
    Array.isArray(conversation?.routes)
  )
}

/**
 * Validates a definition and returns it typed and frozen (the `chat` reference is kept as is).
 * Throws `ChatrailConfigError` listing every issue, each with its path and a fix.
 *
 * The full check runs in development only (`process.env.NODE_ENV` not "production"; issue 32): a
 * production bundle, where a bundler defines NODE_ENV as "production", leaves its code out and
 * checks only that the definition can be built (`runnable`). A valid definition behaves the same
 * either way. Servers and the CLI check every definition whatever NODE_ENV; a definition built
 * from untrusted data in a production bundle goes through `assertValidDefinition` (chatrail/tools).
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
  let positions: Map<string, number> | undefined
  // Written so a bundler's `define` folds the test and the minifier drops the validator (as session.ts
  // drops the lint pass); `typeof process` keeps a browser without a bundler from a ReferenceError.
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production') positions = checkDefinition(input)
  else if (!runnable(input)) {
    throw new ChatrailConfigError([
      configIssue('definition_invalid', [], 'The definition is invalid (NODE_ENV "production" skips its full check).', 'Run it in development for every issue and its fix, or check it with assertValidDefinition (chatrail/tools).'),
    ])
  }
  const conversation = input.conversation
  const routes = Object.freeze([...conversation.routes])
  // validation hashed every route id already: the route index takes that map instead of building its own
  // (without it, the index builds one)
  if (positions) rememberPositions(routes, positions)
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
  // the same test again, not `if (positions)`: folded, it leaves no byte of definition-check.ts in a production bundle
  if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production') markValid(result)
  return result
}

/** True for a value `defineChat` returned (so sessions skip validating it again). */
export function isDefinedChat(value: object): boolean {
  return validated.has(value)
}

import { throwIfIssues } from './config-error.js'
import type { ChatDefinition, ChatDefinitionInput, ChatNames } from './definition.js'
import { validateDefinition } from './definition-schema.js'
import type { JsonObject } from './json.js'
import { withConversation } from './plain-conversation.js'

/**
 * The full definition check as a call of its own (issue 32). `defineChat` runs it only in
 * development (a production browser bundle leaves it out: ≈ 3.7 kB gzip of schema and messages);
 * every server path (chatrail/server's handler, the CLI's definition loader, chatrail/store's
 * `openStoredChat`, the testing kit) calls it whatever NODE_ENV, and `chatrail/tools` exports it
 * for apps that build a definition from data at run time.
 */

// `defineChat` results already checked, here or by a development `defineChat`: each is checked once.
const valid = new WeakSet<object>()

/**
 * Throws `ChatrailConfigError` listing every issue of `input` (each with its path and fix); else
 * returns each route id's position in the table, which the route index takes instead of hashing
 * the ids again. Pure.
 */
export function checkDefinition(input: ChatDefinitionInput): Map<string, number> {
  const positions = new Map<string, number>()
  throwIfIssues(validateDefinition(input, positions))
  return positions
}

/** Records that `definition` passed the check (a development `defineChat` result), so a server does not check it again. */
export function markValid(definition: object): void {
  valid.add(definition)
}

/**
 * Validates a definition (a `defineChat` result or a plain definition object) whatever NODE_ENV,
 * and throws `ChatrailConfigError` listing every issue with its path and a fix: what `defineChat`
 * does in development. For a definition built from data at run time in a production bundle, where
 * `defineChat` skips the check (docs/conversation.md § Validation).
 */
export function assertValidDefinition<Ctx extends JsonObject = JsonObject, N extends ChatNames = ChatNames>(definition: ChatDefinition<Ctx, N> | ChatDefinitionInput<Ctx>): void {
  if (valid.has(definition)) return
  checkDefinition(withConversation(definition as ChatDefinitionInput<Ctx>) as unknown as ChatDefinitionInput)
  // only a frozen definition (a `defineChat` result) is remembered: a plain object may change after
  if (Object.isFrozen(definition)) valid.add(definition)
}

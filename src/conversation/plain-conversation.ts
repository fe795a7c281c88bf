import type { ChatDefinitionInput, ConversationDefinition } from './definition.js'
import type { JsonObject } from './json.js'

/**
 * The conversation of a definition that declares none: one state, `chat`, and no routes, so
 * every message goes to the agentic adapter while sessions, traces and persistence work as for
 * any other definition (what an AgentsKit Chat `defineChat` without a `conversation` is).
 */
export const PLAIN_STATE = 'chat'

const plain: ConversationDefinition = Object.freeze({
  initial: PLAIN_STATE,
  states: Object.freeze({ [PLAIN_STATE]: Object.freeze({}) }),
  routes: Object.freeze([]) as unknown as ConversationDefinition['routes'],
})

/** The plain conversation, typed for a definition's context. */
export function plainConversation<Ctx extends JsonObject>(): ConversationDefinition<Ctx> {
  return plain as unknown as ConversationDefinition<Ctx>
}

/** `input` with the plain conversation filled in when it has none (the same object otherwise). */
export function withConversation<Ctx extends JsonObject>(input: ChatDefinitionInput<Ctx>): ChatDefinitionInput<Ctx> & { conversation: ConversationDefinition<Ctx> } {
  if (input.conversation !== undefined) return input as ChatDefinitionInput<Ctx> & { conversation: ConversationDefinition<Ctx> }
  return { ...input, conversation: plainConversation<Ctx>() }
}

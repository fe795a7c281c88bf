import type { Message } from '../contract/message.js'

/**
 * What `ConversationStore.loadDecisions` keeps of a message: what a walk of the conversation's
 * decisions reads (who spoke, when, how it ended, the decision record and the other metadata, and
 * a user's text, which a record's fingerprint is of), without what only a reader of the answers
 * needs (their texts, parts and tool calls). The SQL stores select the same fields from the stored
 * JSON in the database (schema.ts `loadDecisions`), so an answer's text never leaves it; the memory
 * store and the conformance suite use this function, the one definition of the shape.
 */
export function decisionViewOf(message: Message): Message {
  return {
    id: message.id,
    role: message.role,
    status: message.status,
    createdAt: message.createdAt,
    content: message.role === 'user' ? message.content : '',
    ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
    ...(message.toolCallId === undefined ? {} : { toolCallId: message.toolCallId }),
  }
}

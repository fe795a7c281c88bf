import * as z from 'zod/mini'

/**
 * The body `useChat`'s default transport POSTs (AI SDK `DefaultChatTransport`): the chat id, the
 * client's whole history as UI messages, what triggered the request and, for a regenerate, the
 * id of the assistant message to replace. A server trusts none of it beyond the new user message.
 */

const uiMessagePart = z.looseObject({ type: z.string() })

const chatRequestMessage = z.looseObject({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(uiMessagePart),
  metadata: z.optional(z.unknown()),
})

export const chatRequestSchema = z.looseObject({
  id: z.string(),
  messages: z.array(chatRequestMessage),
  trigger: z.enum(['submit-message', 'regenerate-message']),
  messageId: z.optional(z.string()),
})

export type ChatRequest = z.infer<typeof chatRequestSchema>
export type ChatRequestMessage = z.infer<typeof chatRequestMessage>

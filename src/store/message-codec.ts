import { inEnglish } from '../contract/english-issues.js'
import { ChatrailError } from '../contract/errors.js'
import type { Message } from '../contract/message.js'
import { messageSchema, storedMessageSchema } from '../contract/schemas.js'
import { isPlainMessageShape } from './message-shape.js'
import { StoreCorruptRowError, StoreMessageTooLargeError } from './store-errors.js'

/**
 * Messages ⇄ stored rows. Every store keeps a message as its JSON text (`createdAt` as an ISO
 * string): what is read back is byte-for-byte what was written, a caller mutating a message after
 * the write cannot change the stored one, and a row changed outside chatrail is detected on read
 * (`StoreCorruptRowError` naming the conversation and row) instead of surfacing as a bad message.
 */

export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024

export interface EncodedMessage {
  readonly id: string
  readonly body: string
}

const encoder = new TextEncoder()

/** Validates and serializes the messages of one write; throws before anything is written. */
export function encodeMessages(conversationId: string, messages: readonly Message[], maxBytes: number): EncodedMessage[] {
  if (!Array.isArray(messages)) {
    throw new ChatrailError({ code: 'STORE_INVALID_MESSAGE', message: `append("${conversationId}"): messages must be an array.`, hint: 'Pass the new messages of the turn, e.g. [userMessage, assistantMessage].' })
  }
  const seen = new Set<string>()
  return messages.map((message, index) => {
    const parsed = isPlainMessageShape(message, 'date') ? undefined : messageSchema.safeParse(message, inEnglish)
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(root)'
      throw new ChatrailError({
        code: 'STORE_INVALID_MESSAGE',
        message: `append("${conversationId}"): messages[${index}] is not a message at ${where}: ${issue?.message ?? 'unknown problem'}. Nothing was written.`,
        hint: 'Pass messages as the controller holds them: { id, role, content, status, createdAt: Date, … }.',
        cause: parsed.error,
      })
    }
    if (seen.has(message.id)) {
      throw new ChatrailError({ code: 'STORE_INVALID_MESSAGE', message: `append("${conversationId}"): message id "${message.id}" appears twice in one write. Nothing was written.`, hint: 'Give every message its own id.' })
    }
    seen.add(message.id)
    const body = JSON.stringify(message)
    // String length is a lower bound on UTF-8 bytes; count exactly only when it could matter.
    const bytes = body.length * 3 <= maxBytes ? body.length : encoder.encode(body).byteLength
    if (bytes > maxBytes) throw new StoreMessageTooLargeError(conversationId, message.id, bytes, maxBytes)
    return { id: message.id, body }
  })
}

/** A stored row back to a message; `StoreCorruptRowError` when it is not one. */
export function decodeRow(conversationId: string, seq: number, messageId: string | undefined, body: string): Message {
  let raw: unknown
  try {
    raw = JSON.parse(body)
  } catch (error) {
    throw new StoreCorruptRowError(conversationId, seq, messageId, 'the stored message is not valid JSON', error)
  }
  return decodeParsedRow(conversationId, seq, messageId, raw)
}

/** A stored row's JSON, already parsed (a read that parsed many rows at once), back to a message; `StoreCorruptRowError` when it is not one. */
export function decodeParsedRow(conversationId: string, seq: number, messageId: string | undefined, raw: unknown): Message {
  const parsed = isPlainMessageShape(raw, 'iso') ? undefined : storedMessageSchema.safeParse(raw, inEnglish)
  if (parsed && !parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(root)'
    throw new StoreCorruptRowError(conversationId, seq, messageId, `the stored message is invalid at ${where}: ${issue?.message ?? 'unknown problem'}`, parsed.error)
  }
  // The parsed JSON itself (zod would drop keys it does not know), with createdAt a Date again.
  const message = raw as Omit<Message, 'createdAt'> & { createdAt: string | Date }
  message.createdAt = new Date(message.createdAt)
  return message as Message
}

import type { MemoryRecord, Message } from '../contract/message.js'
import { inEnglish } from '../contract/english-issues.js'
import { memoryRecordSchema } from '../contract/schemas.js'
import { ErrorCodes, MemoryError } from './errors.js'

/** Pure: messages → a JSON-safe `{ version: 1, messages }` record (dates as ISO strings). */
export function serializeMessages(messages: readonly Message[]): MemoryRecord {
  return JSON.parse(JSON.stringify({ version: 1, messages })) as MemoryRecord
}

/**
 * Validates an untrusted record (parsed JSON) and turns it back into messages with `Date`s.
 * Throws a `MemoryError` (`AK_MEMORY_DESERIALIZE_FAILED`) naming the first bad field.
 */
export function deserializeMessages(record: unknown): Message[] {
  const parsed = memoryRecordSchema.safeParse(record, inEnglish)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(root)'
    throw new MemoryError({
      code: ErrorCodes.AK_MEMORY_DESERIALIZE_FAILED,
      message: `Memory record is invalid at ${where}: ${issue?.message ?? 'unknown problem'}`,
      hint: 'Expected { version: 1, messages: [...] } as written by serializeMessages; delete or migrate the stored record.',
      cause: parsed.error,
    })
  }
  return parsed.data.messages.map((message) => ({ ...message, createdAt: new Date(message.createdAt) }))
}

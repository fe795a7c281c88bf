import type { MemoryRecord, Message } from '../contract/message.js'
import { inEnglish } from '../contract/english-issues.js'
import { memoryRecordSchema } from '../contract/schemas.js'
import { ConfigError, ErrorCodes, MemoryError } from './errors.js'
import { findJsonProblem } from './json-problem.js'

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

/** How deep a stored record may nest (the record itself is level 0; message metadata starts at 3). */
const MAX_RECORD_DEPTH = 32

/** Where the first zod issue of a failed parse points, dotted. */
const issuePath = (path: readonly PropertyKey[] | undefined): string =>
  path && path.length > 0 ? path.map(String).join('.') : '(root)'

/**
 * AgentsKit's `validateMemoryRecord`: checks an untrusted stored record (parsed JSON) and returns
 * a fresh copy that holds only the contract's fields — plain JSON, `version: 1`, every message
 * valid for `memoryRecordSchema` with `createdAt` exactly as `Date#toISOString` writes it. Anything
 * else throws one `ConfigError` (`AK_CONFIG_INVALID`) whose message, like upstream's, never
 * repeats the input; its `hint` names the first bad place (`messages.0.role`) and the fix.
 * Pure: the input is never changed and a getter in it is never run.
 */
export function validateMemoryRecord(input: unknown): MemoryRecord {
  const invalid = (path: string, problem: string): ConfigError =>
    new ConfigError({
      code: ErrorCodes.AK_CONFIG_INVALID,
      message: 'Serialized message record is invalid.',
      hint: `${path} ${problem}. Pass a version 1 MemoryRecord as serializeMessages() writes it.`,
    })
  const problem = findJsonProblem(input, MAX_RECORD_DEPTH)
  if (problem) throw invalid(problem.path, problem.problem)
  // A copy, so the caller's object can change afterwards without changing what was validated.
  const parsed = memoryRecordSchema.safeParse(JSON.parse(JSON.stringify(input)) as unknown, inEnglish)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalid(issuePath(issue?.path), `is invalid: ${issue?.message ?? 'unknown problem'}`)
  }
  parsed.data.messages.forEach((message, index) => {
    if (new Date(message.createdAt).toISOString() !== message.createdAt) {
      throw invalid(`messages.${index}.createdAt`, 'is not written as Date#toISOString() writes it (e.g. 2026-01-01T00:00:00.000Z)')
    }
  })
  return parsed.data
}

import type { Message } from '../contract/message.js'

/**
 * A fast, allocation-free check for the common message shape (what a server turn writes: id, role,
 * content, status, createdAt, maybe metadata or toolCallId), so the store validates it without a zod
 * parse per message (a zod object parse rebuilds the object: the largest cost of a short write).
 * It only ever says yes to messages the zod schema accepts; anything else (parts, toolCalls, an
 * unknown key, a wrong type) returns false and goes through the schema, which also words the error.
 */

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'system', 'tool'])
const STATUSES: ReadonlySet<unknown> = new Set(['pending', 'streaming', 'complete', 'error'])
const KEYS: ReadonlySet<string> = new Set(['id', 'role', 'content', 'status', 'createdAt', 'metadata', 'toolCallId'])
/** A subset of the ISO datetimes `z.iso.datetime({ offset: true })` accepts (what `JSON.stringify(date)` writes). */
const ISO = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/

const plainObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** True when `value` is certainly a valid message (`createdAt` a valid Date, or for a stored row an ISO string). */
export function isPlainMessageShape(value: unknown, createdAt: 'date' | 'iso'): value is Message {
  if (!plainObject(value)) return false
  const m = value as Record<string, unknown>
  for (const key of Object.keys(m)) if (!KEYS.has(key)) return false
  if (typeof m.id !== 'string' || m.id === '' || !ROLES.has(m.role) || typeof m.content !== 'string' || !STATUSES.has(m.status)) return false
  if (m.toolCallId !== undefined && typeof m.toolCallId !== 'string') return false
  if (m.metadata !== undefined && !plainObject(m.metadata)) return false
  const at = m.createdAt
  return createdAt === 'date' ? at instanceof Date && !Number.isNaN(at.getTime()) : typeof at === 'string' && ISO.test(at) && realDay(at)
}

/** The regex lets Feb 31 through; the schema does not. */
function realDay(iso: string): boolean {
  const year = Number(iso.slice(0, 4))
  const month = Number(iso.slice(5, 7))
  const day = Number(iso.slice(8, 10))
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day
}

import type { ActionConfirmation, ConfirmationLedger } from '../contract/action-confirmation.js'
import { StoreCorruptRowError } from './store-errors.js'

/**
 * Confirmation records as a store keeps them: JSON text, read back deep-frozen. A row that does not
 * decode to a record is `StoreCorruptRowError` (never a guess at a status).
 */

const STATUSES = new Set(['pending', 'approving', 'executing', 'rejecting', 'expiring', 'approved', 'rejected', 'expired'])
const MAX_LIST = 1000

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key])
  }
  return value
}

export function encodeConfirmation(record: ActionConfirmation): string {
  return JSON.stringify(record)
}

export function decodeConfirmation(token: string, body: string): ActionConfirmation {
  let record: unknown
  try {
    record = JSON.parse(body)
  } catch {
    record = undefined
  }
  const r = record as Partial<ActionConfirmation> | undefined
  if (
    typeof r !== 'object' || r === null || r.token !== token || typeof r.sessionId !== 'string' || typeof r.status !== 'string' || !STATUSES.has(r.status) ||
    typeof r.revision !== 'number' || typeof r.expiresAt !== 'number' || typeof r.idempotencyKey !== 'string' || typeof r.action?.name !== 'string'
  ) {
    throw new StoreCorruptRowError(r?.sessionId ?? '?', 0, undefined, `the stored confirmation record for token "${token.slice(0, 8)}…" is not one`)
  }
  return deepFreeze(r as ActionConfirmation)
}

/** Checks a record before it is written (a caller's mistake is a TypeError, not a stored row). */
export function checkConfirmationWrite(record: ActionConfirmation, expected: number): void {
  if (typeof record !== 'object' || record === null || typeof record.token !== 'string' || record.token === '' || record.token.length > 256) throw new TypeError('saveConfirmation: the record needs a token (1 to 256 characters).')
  if (typeof record.sessionId !== 'string' || record.sessionId === '') throw new TypeError('saveConfirmation: the record needs a sessionId.')
  if (!Number.isSafeInteger(expected) || expected < 0 || record.revision !== expected + 1) throw new TypeError(`saveConfirmation: the record's revision must be expected + 1 (got ${String(record.revision)} after ${String(expected)}).`)
}

export const listLimit = (options: Parameters<ConfirmationLedger['listConfirmations']>[1]): number => Math.max(1, Math.min(MAX_LIST, Math.floor(options?.limit ?? 100)))

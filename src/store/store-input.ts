import { configIssue, ChatrailConfigError } from '../conversation/config-error.js'
import { identifierHint, isIdentifier } from '../conversation/identifier.js'
import { MAX_DECISION_LOGS, type AppendInput, type ListOptions, type ListOrder, type LoadOptions, type TurnSignal } from './conversation-store.js'

/** Checks on what a caller hands a store, shared by every implementation so they refuse the same things the same way. */

/** Conversation ids travel into SQL parameters, URLs and logs: identifier-safe, like session ids. */
export function checkConversationId(conversationId: unknown, operation: string): asserts conversationId is string {
  if (isIdentifier(conversationId)) return
  throw new ChatrailConfigError([
    configIssue('invalid_identifier', [operation, 'conversationId'], `${operation}: conversation id ${JSON.stringify(conversationId)} is not identifier-safe.`, identifierHint(conversationId)),
  ])
}

export function checkAppendInput(conversationId: string, input: AppendInput): void {
  const issues = []
  if (!Number.isSafeInteger(input.expectedVersion) || input.expectedVersion < 0) {
    issues.push(configIssue('invalid_version', ['append', 'expectedVersion'], `append("${conversationId}"): expectedVersion must be a non-negative integer, got ${JSON.stringify(input.expectedVersion)}.`, 'Pass the version from load() (0 to create the conversation).'))
  }
  if (!isIdentifier(input.definition?.id)) {
    issues.push(configIssue('invalid_identifier', ['append', 'definition', 'id'], `append("${conversationId}"): definition.id ${JSON.stringify(input.definition?.id)} is not identifier-safe.`, 'Pass { id: definition.id, revision: definition.revision }.'))
  }
  if (!Number.isSafeInteger(input.definition?.revision) || (input.definition?.revision ?? 0) < 1) {
    issues.push(configIssue('invalid_revision', ['append', 'definition', 'revision'], `append("${conversationId}"): definition.revision must be a positive integer.`, 'Pass { id: definition.id, revision: definition.revision }.'))
  }
  if (input.lease && (!Number.isSafeInteger(input.lease.token) || input.lease.token < 1)) {
    issues.push(configIssue('invalid_lease', ['append', 'lease', 'token'], `append("${conversationId}"): lease.token must be the token claim() returned.`, 'Pass the lease from store.claim().'))
  }
  if (input.owner !== undefined && (typeof input.owner !== 'string' || input.owner === '' || input.owner.length > MAX_OWNER_LENGTH)) {
    issues.push(configIssue('invalid_owner', ['append', 'owner'], `append("${conversationId}"): owner must be a principal id of 1 to ${MAX_OWNER_LENGTH} characters.`, 'Pass the id your authenticate() returned.'))
  }
  if (input.release !== undefined && !input.lease) {
    issues.push(configIssue('release_without_lease', ['append', 'release'], `append("${conversationId}"): release needs the lease it releases.`, 'Pass lease together with release.'))
  }
  if (issues.length > 0) throw new ChatrailConfigError(issues)
}

export const MAX_OWNER_LENGTH = 512
/** The largest dialog answer a signal carries (JSON text). */
export const MAX_SIGNAL_BYTES = 64 * 1024

export function checkSignal(conversationId: string, signal: TurnSignal): void {
  const ok = signal?.type === 'stop' || (signal?.type === 'dialog-answer' && typeof signal.payload === 'string' && signal.payload.length <= MAX_SIGNAL_BYTES)
  if (ok) return
  throw new ChatrailConfigError([configIssue('invalid_signal', ['signal', 'signal'], `signal("${conversationId}"): a signal is { type: 'stop' } or { type: 'dialog-answer', payload } with payload JSON text of at most ${MAX_SIGNAL_BYTES} characters.`, "e.g. store.signal(id, { type: 'stop' }).")])
}

export function checkLeaseMs(leaseMs: unknown, operation: string): asserts leaseMs is number {
  if (typeof leaseMs === 'number' && Number.isSafeInteger(leaseMs) && leaseMs > 0) return
  throw new ChatrailConfigError([configIssue('invalid_lease_ms', [operation, 'leaseMs'], `${operation}: leaseMs must be a positive integer of milliseconds, got ${JSON.stringify(leaseMs)}.`, 'e.g. { leaseMs: 30_000 }, longer than your slowest turn (renew() extends it).')])
}

export function checkTtl(idleMs: unknown): asserts idleMs is number {
  if (typeof idleMs === 'number' && Number.isSafeInteger(idleMs) && idleMs >= 0) return
  throw new ChatrailConfigError([configIssue('invalid_ttl', ['expire', 'idleMs'], `expire: idleMs must be a non-negative integer of milliseconds, got ${JSON.stringify(idleMs)}.`, 'e.g. { idleMs: 30 * 24 * 3600 * 1000 } for 30 days.')])
}

export const DEFAULT_PAGE = 100
export const MAX_PAGE = 1000

/** The page size a listing uses. */
export function pageSize(options: ListOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_PAGE
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new ChatrailConfigError([configIssue('invalid_limit', ['list', 'limit'], `list: limit must be an integer from 1 to ${MAX_PAGE}, got ${JSON.stringify(limit)}.`, `Omit it for ${DEFAULT_PAGE}.`)])
  }
  return limit
}

/** Keyset cursor: the last row's (updatedAt, id), opaque to callers. */
export function encodeCursor(updatedAt: number, conversationId: string): string {
  return `${updatedAt}.${conversationId}`
}

export function decodeCursor(cursor: string | undefined): { updatedAt: number; conversationId: string } | undefined {
  if (cursor === undefined) return undefined
  const dot = cursor.indexOf('.')
  const updatedAt = Number(cursor.slice(0, dot))
  const conversationId = cursor.slice(dot + 1)
  if (dot < 1 || !Number.isSafeInteger(updatedAt) || !isIdentifier(conversationId)) {
    throw new ChatrailConfigError([configIssue('invalid_cursor', ['list', 'cursor'], `list: cursor ${JSON.stringify(cursor)} is not one this store returned.`, 'Pass nextCursor from the previous page unchanged.')])
  }
  return { updatedAt, conversationId }
}

/** The order a listing asks for (`oldest` when absent). */
export function listOrder(options: ListOptions | undefined): ListOrder {
  const order = options?.order ?? 'oldest'
  if (order === 'oldest' || order === 'newest') return order
  throw new ChatrailConfigError([configIssue('invalid_order', ['list', 'order'], `list: order must be 'oldest' or 'newest', got ${JSON.stringify(order)}.`, "Omit it for 'oldest'.")])
}

/** A ranged load's options, checked; `undefined` when the whole log is asked for. */
export function checkLoadOptions(conversationId: string, options: LoadOptions | undefined): LoadOptions | undefined {
  if (options === undefined || (options.lastMessages === undefined && options.beforeMessage === undefined)) return undefined
  const { lastMessages, beforeMessage } = options
  if (lastMessages !== undefined && (!Number.isSafeInteger(lastMessages) || lastMessages < 0)) {
    throw new ChatrailConfigError([configIssue('invalid_range', ['load', 'lastMessages'], `load("${conversationId}"): lastMessages must be a non-negative integer, got ${JSON.stringify(lastMessages)}.`, 'e.g. { lastMessages: 200 }; omit it for every message.')])
  }
  if (beforeMessage !== undefined && typeof beforeMessage !== 'string') {
    throw new ChatrailConfigError([configIssue('invalid_range', ['load', 'beforeMessage'], `load("${conversationId}"): beforeMessage must be a stored message's id.`, 'Pass messages[0].id of the range you have.')])
  }
  return options
}

/** A ranged load's `beforeMessage` that is not (any more) in the log. */
export function unknownMessageError(conversationId: string, messageId: string): ChatrailConfigError {
  return new ChatrailConfigError([
    configIssue('unknown_message', ['load', 'beforeMessage'], `load("${conversationId}"): no message "${messageId}" is stored in this conversation (an edit or a regenerate may have cut it).`, 'Load the newest messages again ({ lastMessages }) and page back from there.'),
  ])
}

/** `loadDecisions`' ids: an array of at most `MAX_DECISION_LOGS` identifier-safe ids; returned without repeats. */
export function checkDecisionIds(conversationIds: unknown): string[] {
  if (!Array.isArray(conversationIds) || conversationIds.length > MAX_DECISION_LOGS) {
    throw new ChatrailConfigError([
      configIssue('invalid_ids', ['loadDecisions', 'conversationIds'], `loadDecisions: conversationIds must be an array of at most ${MAX_DECISION_LOGS} conversation ids.`, `Read a longer list ${MAX_DECISION_LOGS} at a time.`),
    ])
  }
  for (const id of conversationIds) checkConversationId(id, 'loadDecisions')
  return [...new Set(conversationIds as string[])]
}

import { ChatrailError, markErrorClass } from '../contract/errors.js'

/**
 * The store's named errors. Each carries what a caller needs to decide what to do next (the
 * current version to rebase on, the lease that replaced yours, the row that is corrupt), and a
 * `Symbol.for('chatrail.error.X')` marker so `isInstance` works across the ESM and CJS builds.
 */

/** A write's `expectedVersion` is not the stored version: someone else wrote first. Nothing was written. */
export class StoreConflictError extends ChatrailError {
  readonly conversationId: string
  readonly expectedVersion: number
  /** The stored version now (0 when the conversation does not exist). */
  readonly currentVersion: number

  constructor(conversationId: string, expectedVersion: number, currentVersion: number) {
    super({
      code: 'STORE_CONFLICT',
      message: `Conversation "${conversationId}" is at version ${currentVersion}, not ${expectedVersion}: another writer got there first. Nothing was written.`,
      hint: 'Load the conversation again and re-apply your change on top of the current version.',
    })
    this.name = 'StoreConflictError'
    this.conversationId = conversationId
    this.expectedVersion = expectedVersion
    this.currentVersion = currentVersion
  }

  static override isInstance(value: unknown): value is StoreConflictError {
    return isStoreConflictError(value)
  }
}
export const isStoreConflictError = markErrorClass(StoreConflictError, 'StoreConflictError')

/**
 * A write or renewal carried a lease that is no longer the conversation's current one (it expired
 * and another instance claimed the conversation, or it was released). Nothing was written.
 */
export class StoreLeaseError extends ChatrailError {
  readonly conversationId: string
  /** `fenced`: your token is stale; `busy`: someone else holds an unexpired lease and you wrote without one. */
  readonly reason: 'fenced' | 'busy'
  readonly token: number | undefined
  readonly currentToken: number | undefined

  constructor(conversationId: string, reason: 'fenced' | 'busy', token: number | undefined, currentToken: number | undefined) {
    super({
      code: reason === 'fenced' ? 'STORE_LEASE_FENCED' : 'STORE_LEASE_BUSY',
      message:
        reason === 'fenced'
          ? `Conversation "${conversationId}": lease token ${String(token)} is stale (the current token is ${String(currentToken)}); the turn was taken over or already released. Nothing was written.`
          : `Conversation "${conversationId}" has a turn in progress under lease token ${String(currentToken)}; a write without that lease was refused. Nothing was written.`,
      hint: reason === 'fenced' ? 'Abandon this turn: its successor owns the conversation now.' : 'Claim the conversation (store.claim) and pass the lease with the write, or wait for the lease to end.',
    })
    this.name = 'StoreLeaseError'
    this.conversationId = conversationId
    this.reason = reason
    this.token = token
    this.currentToken = currentToken
  }

  static override isInstance(value: unknown): value is StoreLeaseError {
    return isStoreLeaseError(value)
  }
}
export const isStoreLeaseError = markErrorClass(StoreLeaseError, 'StoreLeaseError')

/** A stored row cannot be read back (invalid JSON, a message that is not a message). Other conversations are unaffected. */
export class StoreCorruptRowError extends ChatrailError {
  readonly conversationId: string
  /** The row's position in the conversation's log (`seq`). */
  readonly row: number
  readonly messageId: string | undefined

  constructor(conversationId: string, row: number, messageId: string | undefined, problem: string, cause?: unknown) {
    super({
      code: 'STORE_CORRUPT_ROW',
      message: `Conversation "${conversationId}", row ${row}${messageId ? ` (message "${messageId}")` : ''}: ${problem}.`,
      hint: 'The row was changed outside chatrail. Restore it from a backup, or delete the conversation (store.delete) to start it afresh.',
      cause,
    })
    this.name = 'StoreCorruptRowError'
    this.conversationId = conversationId
    this.row = row
    this.messageId = messageId
  }

  static override isInstance(value: unknown): value is StoreCorruptRowError {
    return isStoreCorruptRowError(value)
  }
}
export const isStoreCorruptRowError = markErrorClass(StoreCorruptRowError, 'StoreCorruptRowError')

/** A conversation stored under one definition id was opened or written under another. */
export class DefinitionMismatchError extends ChatrailError {
  readonly conversationId: string
  readonly storedDefinitionId: string
  readonly definitionId: string

  constructor(conversationId: string, storedDefinitionId: string, definitionId: string) {
    super({
      code: 'STORE_DEFINITION_MISMATCH',
      message: `Conversation "${conversationId}" belongs to definition "${storedDefinitionId}", not "${definitionId}".`,
      hint: `Open it with the "${storedDefinitionId}" definition, or use another conversation id.`,
    })
    this.name = 'DefinitionMismatchError'
    this.conversationId = conversationId
    this.storedDefinitionId = storedDefinitionId
    this.definitionId = definitionId
  }

  static override isInstance(value: unknown): value is DefinitionMismatchError {
    return isDefinitionMismatchError(value)
  }
}
export const isDefinitionMismatchError = markErrorClass(DefinitionMismatchError, 'DefinitionMismatchError')

/** A write named another owner than the principal the conversation belongs to. */
export class OwnerMismatchError extends ChatrailError {
  readonly conversationId: string

  constructor(conversationId: string) {
    super({
      code: 'STORE_OWNER_MISMATCH',
      // the owners are principals: they stay out of the message (it may reach a log)
      message: `Conversation "${conversationId}" belongs to another owner.`,
      hint: 'Write it as the principal that created it, or use another conversation id.',
    })
    this.name = 'OwnerMismatchError'
    this.conversationId = conversationId
  }

  static override isInstance(value: unknown): value is OwnerMismatchError {
    return isOwnerMismatchError(value)
  }
}
export const isOwnerMismatchError = markErrorClass(OwnerMismatchError, 'OwnerMismatchError')

/** A conversation written under another revision was opened with `onRevisionChange: 'reject'`. */
export class RevisionMismatchError extends ChatrailError {
  readonly conversationId: string
  readonly storedRevision: number
  readonly revision: number

  constructor(conversationId: string, storedRevision: number, revision: number) {
    super({
      code: 'STORE_REVISION_MISMATCH',
      message: `Conversation "${conversationId}" was written under revision ${storedRevision} of its definition; this is revision ${revision}.`,
      hint: "Open it with onRevisionChange: 'rederive' (the default) or a migrate function, or start a new conversation.",
    })
    this.name = 'RevisionMismatchError'
    this.conversationId = conversationId
    this.storedRevision = storedRevision
    this.revision = revision
  }

  static override isInstance(value: unknown): value is RevisionMismatchError {
    return isRevisionMismatchError(value)
  }
}
export const isRevisionMismatchError = markErrorClass(RevisionMismatchError, 'RevisionMismatchError')

/** A cause's text: its message (PGlite rejects with plain objects carrying one), never `[object Object]`. */
function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message
  if (typeof cause === 'object' && cause !== null && typeof (cause as { message?: unknown }).message === 'string') return (cause as { message: string }).message
  return String(cause)
}

/** A message of a write is over the store's `maxMessageBytes`. Nothing was written. */
export class StoreMessageTooLargeError extends ChatrailError {
  readonly conversationId: string
  readonly messageId: string
  /** The message's size: its JSON, in UTF-8 bytes. */
  readonly bytes: number
  readonly maxBytes: number

  constructor(conversationId: string, messageId: string, bytes: number, maxBytes: number) {
    super({
      code: 'STORE_MESSAGE_TOO_LARGE',
      message: `append("${conversationId}"): message "${messageId}" is ${bytes} bytes of JSON, over the store's limit of ${maxBytes}. Nothing was written.`,
      hint: 'Keep large payloads (files, images) outside the conversation and store a reference, or raise the limit with the store option maxMessageBytes.',
    })
    this.name = 'StoreMessageTooLargeError'
    this.conversationId = conversationId
    this.messageId = messageId
    this.bytes = bytes
    this.maxBytes = maxBytes
  }

  static override isInstance(value: unknown): value is StoreMessageTooLargeError {
    return isStoreMessageTooLargeError(value)
  }
}
export const isStoreMessageTooLargeError = markErrorClass(StoreMessageTooLargeError, 'StoreMessageTooLargeError')

/** What a `StoreUnavailableError` can say beyond its cause: a hint for this failure, the directory and the process holding it. */
export interface StoreUnavailableDetails {
  /** Replaces the default hint ("check that the database is running") when the fix is another one. */
  readonly hint?: string
  /** The data directory the failure is about (a PGlite directory that cannot be created or is in use). */
  readonly directory?: string
  /** The process holding that directory, when it said who it is. */
  readonly holder?: { readonly pid: number; readonly command?: string }
}

/** The store could not be reached or failed mid-operation (Postgres down, a closed store, a PGlite directory in use). The write did not happen. */
export class StoreUnavailableError extends ChatrailError {
  readonly operation: string
  readonly directory: string | undefined
  readonly holder: StoreUnavailableDetails['holder']

  constructor(operation: string, cause: unknown, details: StoreUnavailableDetails = {}) {
    const detail = messageOf(cause)
    super({
      code: 'STORE_UNAVAILABLE',
      message: `The conversation store failed during ${operation}: ${detail}. The operation was not applied.`,
      hint: details.hint ?? 'Check that the database is running and reachable, then retry the turn.',
      cause,
    })
    this.name = 'StoreUnavailableError'
    this.operation = operation
    this.directory = details.directory
    this.holder = details.holder
  }

  static override isInstance(value: unknown): value is StoreUnavailableError {
    return isStoreUnavailableError(value)
  }
}
export const isStoreUnavailableError = markErrorClass(StoreUnavailableError, 'StoreUnavailableError')

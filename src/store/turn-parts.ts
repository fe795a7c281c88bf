import { configIssue, ChatrailConfigError } from '../conversation/config-error.js'
import type { Lease } from './conversation-store.js'
import { MAX_OWNER_LENGTH } from './store-input.js'

/**
 * A running turn's stream parts, kept in the store while the turn streams, so that a client that
 * reconnects (a reload, a dropped connection) can be served the parts so far and then the live
 * ones by any instance, not only the one running the turn. The store keeps them as opaque text
 * (the server's UI message stream parts, one JSON text each) and numbers them from 0 per turn.
 *
 * Rules every store follows (the contract suite checks them, S15):
 * - a turn's record is created by its first batch (`seq: 0`), which needs the conversation's
 *   current, unreleased lease for that turn (`fenced` otherwise); later batches need only the
 *   record (the last one, carrying `finished`, usually lands just after the turn released its lease);
 * - batches are compare-and-swap on `seq` (the count already stored): a batch at another `seq` is a
 *   `conflict` and writes nothing, so a part is never stored twice or out of order;
 * - at most `maxTurnPartsBytes` (UTF-8 bytes of the parts' text) per turn: the batch that would pass
 *   it is refused whole and the turn is marked `overflowed`; an overflowed turn takes no more parts,
 *   only its `finished` mark (a batch with no parts). Readers then have the parts up to the overflow
 *   and must take the rest of the answer from the stored conversation;
 * - bounded in time: a turn's first batch deletes every turn record, of any conversation, that has
 *   been idle for `TURN_PARTS_RETENTION_MS` and is finished or no longer holds its lease (a finished
 *   turn's parts serve late followers for that long); `delete` and `expire` remove a conversation's
 *   records with it.
 */

/** One batch of a turn's parts, appended after the ones already stored. */
export interface TurnPartsAppend {
  /** The turn's lease (from `claim`): its `turnId` names the record, its token must be current to create it. */
  readonly lease: Pick<Lease, 'turnId' | 'token'>
  /** The number of parts already stored for this turn (0 creates the record). */
  readonly seq: number
  /** The parts, each a JSON text on one line (no raw newline), in order. May be empty (a `finished` mark). */
  readonly parts: readonly string[]
  /** The turn's stream ended with this batch. */
  readonly finished?: boolean
  /** With the first batch: the principal running the turn (a first turn has no stored conversation to name its owner). */
  readonly owner?: string
  /** With the first batch: text the store keeps with the record and does not read (the server's: the running turn's user message). */
  readonly header?: string
}

export type TurnPartsAppendResult =
  /** Stored; `next` is the `seq` of the next batch. */
  | { readonly status: 'appended'; readonly next: number }
  /** Refused: `next` is the count the store holds (the batch was not at it). */
  | { readonly status: 'conflict'; readonly next: number }
  /** Refused: the lease is not this turn's current one (creating), or the record is another lease's. */
  | { readonly status: 'fenced' }
  /** Refused: the record is gone (deleted or swept), or never existed for a batch after the first. */
  | { readonly status: 'gone' }
  /** Refused: the turn's parts would pass `maxTurnPartsBytes`; the turn is marked `overflowed`. */
  | { readonly status: 'overflow'; readonly next: number }

export interface TurnPartsReadOptions {
  /** The turn to read. Default: the turn that last claimed the conversation's lease. */
  readonly turnId?: string
  /** The first part wanted (its `seq`). Default 0. */
  readonly from?: number
  /** False: the record and the lease without any part (e.g. to learn whether a turn runs). Default true. */
  readonly parts?: boolean
  /** True: include the record's `header` (a follower polling for parts does not need it). Default false. */
  readonly header?: boolean
}

/** The conversation's lease as a reader of turn parts needs it. */
export interface TurnLeaseState {
  readonly turnId: string
  readonly token: number
  /** Claimed, not released, not expired: the turn may still produce parts. */
  readonly held: boolean
  readonly owner?: string
}

export interface TurnPartsRecord {
  readonly turnId: string
  /** The lease token the record was created under. */
  readonly token: number
  readonly owner?: string
  /** Only when read with `header: true`. */
  readonly header?: string
  /** The parts from `from` on, in order (empty when `parts: false`). */
  readonly parts: readonly string[]
  /** How many parts the turn stored in all (the next batch's `seq`). */
  readonly next: number
  readonly finished: boolean
  readonly overflowed: boolean
  /** When the record last changed (the writer's store clock). */
  readonly updatedAt: Date
}

export interface TurnPartsRead {
  /** Absent: the conversation was never claimed (or it was deleted). */
  readonly lease?: TurnLeaseState
  /** Absent: the turn stored no part (yet), or its record was deleted. */
  readonly turn?: TurnPartsRecord
}

/** The default cap on one turn's parts (UTF-8 bytes of their text). */
export const DEFAULT_MAX_TURN_PARTS_BYTES = 8 * 1024 * 1024
/** How long a finished (or abandoned) turn's record is kept once idle, for followers that are behind. */
export const TURN_PARTS_RETENTION_MS = 60_000
/** The largest `header` (characters). */
export const MAX_TURN_HEADER_LENGTH = 2 * 1024 * 1024

/** UTF-8 bytes of a string, without allocating (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
export function utf8Bytes(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2 // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++
    } else bytes += 2
  }
  return bytes
}

/** A lease's turn id as `claim` takes it (the store does not restrict its characters). */
const isTurnId = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 256

export function checkTurnPartsAppend(conversationId: string, input: TurnPartsAppend): void {
  const issues = []
  const where = `appendTurnParts("${conversationId}")`
  if (!isTurnId(input?.lease?.turnId) || !Number.isSafeInteger(input.lease.token) || input.lease.token < 1) {
    issues.push(configIssue('invalid_lease', ['appendTurnParts', 'lease'], `${where}: lease must be the turn's lease from claim() ({ turnId, token }).`, 'Pass the lease store.claim() returned.'))
  }
  if (!Number.isSafeInteger(input?.seq) || input.seq < 0) {
    issues.push(configIssue('invalid_seq', ['appendTurnParts', 'seq'], `${where}: seq must be the number of parts already stored (a non-negative integer), got ${JSON.stringify(input?.seq)}.`, 'Start at 0 and add each batch’s length.'))
  }
  if (!Array.isArray(input?.parts) || input.parts.some((part) => typeof part !== 'string' || part === '' || part.includes('\n'))) {
    issues.push(configIssue('invalid_parts', ['appendTurnParts', 'parts'], `${where}: parts must be an array of non-empty texts without a raw newline (one JSON text each).`, 'Pass JSON.stringify(part) for each part.'))
  }
  if (input?.owner !== undefined && (typeof input.owner !== 'string' || input.owner === '' || input.owner.length > MAX_OWNER_LENGTH)) {
    issues.push(configIssue('invalid_owner', ['appendTurnParts', 'owner'], `${where}: owner must be a principal id of 1 to ${MAX_OWNER_LENGTH} characters.`, 'Pass the id your authenticate() returned.'))
  }
  if (input?.header !== undefined && (typeof input.header !== 'string' || input.header.length > MAX_TURN_HEADER_LENGTH)) {
    issues.push(configIssue('invalid_header', ['appendTurnParts', 'header'], `${where}: header must be a text of at most ${MAX_TURN_HEADER_LENGTH} characters.`, 'Pass JSON text, or leave it out.'))
  }
  if (issues.length > 0) throw new ChatrailConfigError(issues)
}

export function checkTurnPartsRead(conversationId: string, options: TurnPartsReadOptions | undefined): void {
  const where = `readTurnParts("${conversationId}")`
  if (options?.turnId !== undefined && !isTurnId(options.turnId)) {
    throw new ChatrailConfigError([configIssue('invalid_turn_id', ['readTurnParts', 'turnId'], `${where}: turnId must be the turnId of a lease (a non-empty text of at most 256 characters).`, 'Pass the turnId of a lease, or leave it out for the current turn.')])
  }
  if (options?.from !== undefined && (!Number.isSafeInteger(options.from) || options.from < 0)) {
    throw new ChatrailConfigError([configIssue('invalid_seq', ['readTurnParts', 'from'], `${where}: from must be a non-negative integer, got ${JSON.stringify(options.from)}.`, 'Pass the count of parts already read.')])
  }
}

/** Checks the store option. */
export function turnPartsBytesOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_TURN_PARTS_BYTES
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ChatrailConfigError([configIssue('invalid_max_turn_parts_bytes', ['store', 'maxTurnPartsBytes'], `maxTurnPartsBytes must be a positive integer of bytes, got ${JSON.stringify(value)}.`, `Leave it out for ${DEFAULT_MAX_TURN_PARTS_BYTES} (8 MiB).`)])
  }
  return value
}

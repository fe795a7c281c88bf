import type { LeaseRow } from './lease-rules.js'
import { TURN_PARTS_RETENTION_MS, utf8Bytes, type TurnPartsAppend, type TurnPartsAppendResult, type TurnPartsRead, type TurnPartsReadOptions } from './turn-parts.js'

/**
 * `memoryStore`'s turn parts (the rules are in turn-parts.ts; the SQL stores run the same ones in
 * `chatrail_turn_parts_append`). Parts are kept as the texts they came as, copied on the way in
 * and out, so a caller can change nothing stored.
 */

interface TurnRecord {
  readonly turnId: string
  readonly token: number
  readonly owner: string | undefined
  readonly header: string | undefined
  readonly parts: string[]
  bytes: number
  finished: boolean
  overflowed: boolean
  updatedAt: number
}

export interface MemoryTurnParts {
  append: (conversationId: string, input: TurnPartsAppend) => TurnPartsAppendResult
  read: (conversationId: string, options: TurnPartsReadOptions | undefined) => TurnPartsRead
  /** Drops a conversation's records (its delete or expiry). */
  drop: (conversationId: string) => void
  /** Drops idle records (see turn-parts.ts). */
  sweep: () => void
}

export interface MemoryTurnPartsDeps {
  readonly clock: () => number
  readonly maxBytes: number
  readonly lease: (conversationId: string) => (LeaseRow & { readonly owner?: string }) | undefined
}

export function memoryTurnParts(deps: MemoryTurnPartsDeps): MemoryTurnParts {
  const { clock, maxBytes } = deps
  // conversation id → turn id → record
  const turns = new Map<string, Map<string, TurnRecord>>()

  const holds = (conversationId: string, record: TurnRecord, now: number): boolean => {
    const lease = deps.lease(conversationId)
    return lease !== undefined && lease.turnId === record.turnId && lease.token === record.token && !lease.released && lease.expiresAt > now
  }

  const sweep = (): void => {
    const now = clock()
    for (const [conversationId, records] of turns) {
      for (const [turnId, record] of records) {
        if (record.updatedAt < now - TURN_PARTS_RETENTION_MS && (record.finished || !holds(conversationId, record, now))) records.delete(turnId)
      }
      if (records.size === 0) turns.delete(conversationId)
    }
  }

  return {
    append(conversationId, input) {
      const now = clock()
      const bytes = input.parts.reduce((sum, part) => sum + utf8Bytes(part), 0) + Math.max(0, input.parts.length - 1)
      let records = turns.get(conversationId)
      let record = records?.get(input.lease.turnId)
      if (input.seq === 0 && !record) {
        const lease = deps.lease(conversationId)
        if (!lease || lease.released || lease.token !== input.lease.token || lease.turnId !== input.lease.turnId) return { status: 'fenced' }
        sweep()
        records = turns.get(conversationId)
        if (!records) turns.set(conversationId, (records = new Map()))
        record = { turnId: input.lease.turnId, token: input.lease.token, owner: input.owner, header: input.header, parts: [], bytes: 0, finished: false, overflowed: false, updatedAt: now }
        records.set(record.turnId, record)
      } else if (!record) return { status: 'gone' }
      if (record.token !== input.lease.token) return { status: 'fenced' }
      if (record.parts.length !== input.seq) return { status: 'conflict', next: record.parts.length }
      // past the cap the batch is refused whole and the turn marked; it takes its finished mark, never another part
      if (input.parts.length > 0 && (record.overflowed || record.bytes + bytes > maxBytes)) {
        record.overflowed = true
        if (input.finished) record.finished = true
        record.updatedAt = now
        return { status: 'overflow', next: record.parts.length }
      }
      for (const part of input.parts) record.parts.push(part)
      record.bytes += bytes
      if (input.finished) record.finished = true
      record.updatedAt = now
      return { status: 'appended', next: record.parts.length }
    },

    read(conversationId, options) {
      const now = clock()
      const lease = deps.lease(conversationId)
      const turnId = options?.turnId ?? lease?.turnId
      const record = turnId === undefined ? undefined : turns.get(conversationId)?.get(turnId)
      const from = options?.from ?? 0
      return {
        ...(lease ? { lease: { turnId: lease.turnId, token: lease.token, held: !lease.released && lease.expiresAt > now, ...(lease.owner === undefined ? {} : { owner: lease.owner }) } } : {}),
        ...(record
          ? {
              turn: {
                turnId: record.turnId,
                token: record.token,
                ...(record.owner === undefined ? {} : { owner: record.owner }),
                ...(record.header === undefined || options?.header !== true ? {} : { header: record.header }),
                parts: options?.parts === false ? [] : record.parts.slice(from),
                next: record.parts.length,
                finished: record.finished,
                overflowed: record.overflowed,
                updatedAt: new Date(record.updatedAt),
              },
            }
          : {}),
      }
    },

    drop(conversationId) {
      turns.delete(conversationId)
    },

    sweep,
  }
}

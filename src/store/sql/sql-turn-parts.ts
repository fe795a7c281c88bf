import type { ConversationStore } from '../conversation-store.js'
import { checkConversationId } from '../store-input.js'
import { checkTurnPartsAppend, checkTurnPartsRead, TURN_PARTS_RETENTION_MS, type TurnPartsAppendResult, type TurnPartsRead } from '../turn-parts.js'
import type { Statements } from './schema.js'
import type { SqlRow } from './sql-driver.js'

/** The SQL stores' turn parts: one statement per batch (`chatrail_turn_parts_append`), one per read. */
export interface SqlTurnPartsDeps {
  readonly sql: Statements
  readonly query: (text: string, params: readonly unknown[]) => Promise<SqlRow[]>
  readonly guarded: <T>(operation: string, work: () => Promise<T>) => Promise<T>
  readonly clock: () => number
  readonly maxBytes: number
}

const num = (value: unknown): number => Number(value)
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

export function sqlTurnParts(deps: SqlTurnPartsDeps): Required<Pick<ConversationStore, 'appendTurnParts' | 'readTurnParts'>> {
  const { sql, query, guarded, clock } = deps
  return {
    async appendTurnParts(conversationId, input): Promise<TurnPartsAppendResult> {
      checkConversationId(conversationId, 'appendTurnParts')
      checkTurnPartsAppend(conversationId, input)
      return guarded('appendTurnParts', async () => {
        const [row] = await query(sql.appendTurnParts, [
          conversationId, input.lease.turnId, input.lease.token, input.seq, input.parts.length, input.parts.length === 0 ? null : input.parts.join('\n'),
          input.finished === true, input.owner ?? null, input.header ?? null, deps.maxBytes, clock(), TURN_PARTS_RETENTION_MS,
        ])
        const next = num(row?.next_seq)
        switch (row?.status) {
          case 'appended':
          case 'conflict':
          case 'overflow':
            return { status: row.status, next }
          case 'fenced':
          case 'gone':
            return { status: row.status }
          default:
            throw new Error(`chatrail_turn_parts_append returned ${JSON.stringify(row)}`)
        }
      })
    },

    async readTurnParts(conversationId, options): Promise<TurnPartsRead> {
      checkConversationId(conversationId, 'readTurnParts')
      checkTurnPartsRead(conversationId, options)
      const from = options?.from ?? 0
      return guarded('readTurnParts', async () => {
        const [row] = await query(sql.readTurnParts, [conversationId, options?.turnId ?? null, from, options?.parts !== false, options?.header === true, clock()])
        if (!row) return {}
        const leaseOwner = text(row.lease_owner)
        const lease = row.lease_turn_id === null || row.lease_turn_id === undefined
          ? undefined
          : { turnId: row.lease_turn_id as string, token: num(row.lease_token), held: row.lease_held === true, ...(leaseOwner === undefined ? {} : { owner: leaseOwner }) }
        if (row.turn_id === null || row.turn_id === undefined) return lease ? { lease } : {}
        // the batches from the one holding `from`, joined by newlines: split, then drop the parts before `from`
        const body = text(row.body)
        const parts = body === undefined ? [] : body.split('\n').slice(from - num(row.first_seq))
        const owner = text(row.owner)
        const header = text(row.header)
        return {
          ...(lease ? { lease } : {}),
          turn: {
            turnId: row.turn_id as string,
            token: num(row.token),
            ...(owner === undefined ? {} : { owner }),
            ...(header === undefined ? {} : { header }),
            parts,
            next: num(row.next_seq),
            finished: row.finished === true,
            overflowed: row.overflowed === true,
            updatedAt: new Date(num(row.updated_at)),
          },
        }
      })
    },
  }
}

import type { ConversationStore } from '../conversation-store.js'
import { checkConfirmationWrite, decodeConfirmation, encodeConfirmation, listLimit } from '../confirmation-codec.js'
import type { Statements } from './schema.js'
import type { SqlRow } from './sql-driver.js'

/** The SQL stores' confirmation records: one statement per write (see confirmations-sql.ts), one per read. */
export interface SqlConfirmationsDeps {
  readonly sql: Statements
  readonly query: (text: string, params: readonly unknown[]) => Promise<SqlRow[]>
  readonly guarded: <T>(operation: string, work: () => Promise<T>) => Promise<T>
}

export function sqlConfirmations(deps: SqlConfirmationsDeps): Required<Pick<ConversationStore, 'saveConfirmation' | 'loadConfirmation' | 'listConfirmations'>> {
  const { sql, query, guarded } = deps
  return {
    async saveConfirmation(record, expected) {
      checkConfirmationWrite(record, expected)
      const body = encodeConfirmation(record)
      return guarded('saveConfirmation', async () => {
        const rows = expected === 0
          ? await query(sql.insertConfirmation, [record.token, record.sessionId, record.revision, record.status, record.createdAt, body])
          : await query(sql.updateConfirmation, [record.token, record.sessionId, record.revision, record.status, expected, body])
        return rows.length > 0
      })
    },
    async loadConfirmation(token) {
      if (typeof token !== 'string' || token === '' || token.length > 256) return undefined
      return guarded('loadConfirmation', async () => {
        const [row] = await query(sql.loadConfirmation, [token])
        return row ? decodeConfirmation(token, row.body as string) : undefined
      })
    },
    async listConfirmations(sessionId, options) {
      return guarded('listConfirmations', async () => {
        const rows = await query(sql.listConfirmations, [sessionId, listLimit(options)])
        return rows.map((row) => {
          const body = row.body as string
          const token = (JSON.parse(body) as { token?: unknown }).token
          return decodeConfirmation(typeof token === 'string' ? token : '', body)
        })
      })
    },
  }
}

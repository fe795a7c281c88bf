import type { ConversationStore } from './conversation-store.js'
import { checkConfirmationWrite, decodeConfirmation, encodeConfirmation, listLimit } from './confirmation-codec.js'

interface Row {
  readonly sessionId: string
  readonly revision: number
  readonly createdAt: number
  readonly body: string
}

/**
 * `memoryStore`'s confirmation records: the SQL stores' rules in a map (kept as JSON text, so a
 * read is a copy), the compare-and-swap a synchronous check-and-set (one thread).
 */
export function memoryConfirmations(open: (operation: string) => void): Required<Pick<ConversationStore, 'saveConfirmation' | 'loadConfirmation' | 'listConfirmations'>> & { drop: (sessionId: string) => void } {
  const rows = new Map<string, Row>()
  return {
    async saveConfirmation(record, expected) {
      checkConfirmationWrite(record, expected)
      open('saveConfirmation')
      const stored = rows.get(record.token)
      if ((stored?.revision ?? 0) !== expected || (stored && stored.sessionId !== record.sessionId)) return false
      rows.set(record.token, { sessionId: record.sessionId, revision: record.revision, createdAt: stored?.createdAt ?? record.createdAt, body: encodeConfirmation(record) })
      return true
    },
    async loadConfirmation(token) {
      open('loadConfirmation')
      const row = rows.get(token)
      return row ? decodeConfirmation(token, row.body) : undefined
    },
    async listConfirmations(sessionId, options) {
      open('listConfirmations')
      const found = [...rows.entries()].filter(([, row]) => row.sessionId === sessionId)
      found.sort(([a, x], [b, y]) => x.createdAt - y.createdAt || (a < b ? -1 : a > b ? 1 : 0))
      return found.slice(0, listLimit(options)).map(([token, row]) => decodeConfirmation(token, row.body))
    },
    drop(sessionId) {
      for (const [token, row] of rows) if (row.sessionId === sessionId) rows.delete(token)
    },
  }
}

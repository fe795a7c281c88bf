import type { ActionConfirmation, ConfirmationLedger } from '../contract/action-confirmation.js'

/**
 * Confirmation records in memory, behind the same compare-and-swap as the SQL stores: one
 * process's ledger (a coordinator without a store, and `memoryStore`). Bounded: past `maxRecords`
 * the oldest final records go first (a pending or processing record is never dropped).
 */
export function memoryConfirmationLedger(options: { readonly maxRecords?: number } = {}): ConfirmationLedger {
  const maxRecords = options.maxRecords ?? 10_000
  // insertion order is creation order: a record keeps its place when it is replaced
  const records = new Map<string, ActionConfirmation>()
  const prune = (): void => {
    if (records.size <= maxRecords) return
    for (const [token, record] of records) {
      if (records.size <= maxRecords) return
      if (record.status === 'approved' || record.status === 'rejected' || record.status === 'expired') records.delete(token)
    }
  }
  return {
    async saveConfirmation(record, expected) {
      const stored = records.get(record.token)
      if ((stored?.revision ?? 0) !== expected) return false
      if (stored && stored.sessionId !== record.sessionId) return false
      records.set(record.token, record)
      prune()
      return true
    },
    async loadConfirmation(token) {
      return records.get(token)
    },
    async listConfirmations(sessionId, listOptions) {
      const limit = listOptions?.limit ?? 100
      const found: ActionConfirmation[] = []
      for (const record of records.values()) {
        if (record.sessionId !== sessionId) continue
        found.push(record)
        if (found.length >= limit) break
      }
      return found
    },
    peekByToolCall: (sessionId, toolCallId) => [...records.values()].findLast((record) => record.sessionId === sessionId && record.toolCallId === toolCallId),
  }
}

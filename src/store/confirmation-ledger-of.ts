import type { ConfirmationLedger } from '../contract/action-confirmation.js'
import { ChatrailError } from '../contract/errors.js'
import type { ConversationStore } from './conversation-store.js'

/**
 * A store as a confirmation ledger (`createActionConfirmation({ ledger })`): its three optional
 * methods, checked present. Throws `ChatrailError` `CONFIRMATIONS_UNSUPPORTED` for a store without
 * them (a third party's, or one written before migration 5's release).
 */
export function confirmationLedgerOf(store: ConversationStore): ConfirmationLedger {
  const { saveConfirmation, loadConfirmation, listConfirmations } = store
  if (!saveConfirmation || !loadConfirmation || !listConfirmations) {
    throw new ChatrailError({
      code: 'CONFIRMATIONS_UNSUPPORTED',
      message: `The ${store.kind} store keeps no confirmation records.`,
      hint: 'Use memoryStore, pgliteStore or postgresStore (chatrail/store), or implement saveConfirmation/loadConfirmation/listConfirmations.',
    })
  }
  return { saveConfirmation, loadConfirmation, listConfirmations }
}

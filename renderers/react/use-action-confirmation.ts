import { useSyncExternalStore } from 'react'
import type { ActionConfirmation } from '../../src/contract/action-confirmation.js'
import type { ActionConfirmationCoordinator } from '../../src/conversation/action-confirmation.js'

/**
 * The record for `token` as a local coordinator knows it, re-rendered on every change
 * (`useSyncExternalStore` over `subscribe`; records are immutable, so the snapshot is the record).
 */
export function useActionConfirmation(confirmations: ActionConfirmationCoordinator, token: string): ActionConfirmation | undefined {
  return useSyncExternalStore(
    confirmations.subscribe,
    () => confirmations.getSnapshot().find((record) => record.token === token),
    () => undefined,
  )
}

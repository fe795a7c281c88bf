import type { ChatrailConfigError } from './config-error.js'
import type { PersistKit } from './persist-kit.js'

/**
 * The error `session.persist()` rejects with when the session has no `storage`. Loaded only then
 * (issue 32: a misuse's words need not be in every app's initial load); the session hands in the
 * kit that makes config errors (persist-kit.ts), so this module takes only types.
 */
export function missingStorage(sessionId: string, kit: PersistKit): ChatrailConfigError {
  return kit.configError('missing_session_storage', ['storage'], `session.persist(): session "${sessionId}" has no storage.`, 'Pass storage: { load, save } to createChatSession (docs/persistence.md § Session snapshots).')
}

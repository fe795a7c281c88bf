import type { ConfirmationLedger } from '../contract/action-confirmation.js'
import { lazyObject } from './lazy-object.js'
import { persistKit } from './persist-kit.js'
import type { Persister, PersisterDeps } from './persist-session.js'

/**
 * What a session with `storage` holds of its persistence before it is needed: the persister
 * (persist-session.ts) loads on the first save or confirmation, so a session that never persists,
 * and every session without `storage`, does not ship it. `resumeChatSession` finds a session's
 * persistence here (it restores into it), not through the public session object.
 */

export interface SessionPersistence {
  persist: (signal?: AbortSignal) => Promise<void>
  /** Saves in the background (after a turn); a failure goes to `onError`. */
  schedule: () => void
  cursor: () => number
  /** The session's confirmation records, saved with the snapshot. */
  readonly ledger: ConfirmationLedger
  load: () => Promise<Persister>
}

const persistences = new WeakMap<object, SessionPersistence>()

export function sessionPersistence(deps: Omit<PersisterDeps, 'kit'>, onError: (error: unknown) => void): SessionPersistence {
  let loading: Promise<Persister> | undefined
  let loaded: Persister | undefined
  const load = (): Promise<Persister> => (loading ??= import('./persist-session.js').then(({ createPersister }) => (loaded = createPersister({ ...deps, kit: persistKit }))))
  return {
    persist: (signal) => load().then((persister) => persister.persist(signal)),
    schedule() {
      load()
        .then((persister) => persister.persist())
        .catch((error: unknown) => {
          try {
            onError(error)
          } catch {
            // the observer's own failure changes nothing
          }
        })
    },
    cursor: () => loaded?.cursor() ?? 0,
    ledger: lazyObject(() => load().then(({ ledger }) => ledger), 'saveConfirmation loadConfirmation listConfirmations', {
      // nothing to peek before the persister is loaded (a resumed session has loaded it)
      peekByToolCall: (sessionId, toolCallId) => loaded?.ledger.peekByToolCall?.(sessionId, toolCallId),
    }),
    load,
  }
}

export function registerPersistence(session: object, persistence: SessionPersistence): void {
  persistences.set(session, persistence)
}

export function persistenceOf(session: object): SessionPersistence | undefined {
  return persistences.get(session)
}

/** What `persist()` does without `storage`: rejects with `missing_session_storage` (missing-storage.ts, loaded then). */
export function withoutStorage(sessionId: string): Promise<never> {
  return import('./missing-storage.js').then(({ missingStorage }) => Promise.reject(missingStorage(sessionId, persistKit)))
}

/** The default for a failed background save: said on stderr, never dropped. */
export function reportPersistError(sessionId: string): (error: unknown) => void {
  return (error) => console.error(`chatrail: saving session "${sessionId}" failed:`, error)
}

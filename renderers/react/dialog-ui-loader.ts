import { use } from 'react'
import type { ReactPromise } from 'react'
import type * as DialogUIModule from './dialog-ui.js'

/**
 * Loading the agent-dialog UI chunk (dialog-ui.ts). A type-only import of the chunk above; the one
 * runtime reference is the `import()` below, which bundlers (esbuild, tsup, Vite, webpack) turn
 * into a separate chunk.
 */

export type DialogUI = typeof DialogUIModule

/**
 * One load of the chunk, read with React's `use()`. It never rejects (a failed load resolves to
 * its error), and `status` / `value` are set as soon as it settles: that is the protocol `use()`
 * reads, so once the chunk is in, every card renders synchronously, with no Suspense fallback and
 * no height change a tick later.
 */
type DialogUIRequest = ReactPromise<DialogUI | Error>

let request: DialogUIRequest | undefined

/**
 * The current load of the chunk, started on the first call. `retry` starts a new one when the
 * last load failed (a failed load is kept until then, so a render never loops on retries).
 */
export function loadDialogUI(retry = false): DialogUIRequest {
  if (request === undefined || (retry && request.status === 'fulfilled' && request.value instanceof Error)) {
    const started = import('./dialog-ui.js')
      .catch((failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))))
    void started.then((value) => Object.assign(started, { status: 'fulfilled', value }))
    request = started
  }
  return request
}

/** The dialog UI, or why it failed to load; suspends (to the caller's `<Suspense>`) while it loads. */
export function useDialogUI(): DialogUI | Error {
  return use(loadDialogUI())
}

/**
 * Starts downloading the agent-dialog UI (dialog cards, plan markdown) now, so the first card
 * renders without a loading placeholder. `<MessageList>` and `<ChatSession>` call this themselves
 * as soon as the session has a live agent. Call it yourself to prefetch earlier, or `await` it
 * before `renderToString` so server HTML has full cards instead of placeholders. Idempotent;
 * resolves once the UI can render; rejects with the load's error (a later call tries again).
 */
export async function preloadDialogUI(): Promise<void> {
  const loaded = await loadDialogUI(true)
  if (loaded instanceof Error) throw loaded
}

import { use } from './react-api.js'
import type { ReactPromise } from 'react'
import type * as DialogUIModule from './dialog-ui.js'
import { lazyChunk } from './lazy-chunk.js'

/**
 * Loading the agent-dialog UI chunk (dialog-ui.ts). A type-only import of the chunk above; the one
 * runtime reference is the `import()` below, which bundlers (esbuild, tsup, Vite, webpack) turn
 * into a separate chunk.
 */

export type DialogUI = typeof DialogUIModule

const chunk = lazyChunk(() => import('./dialog-ui.js'))

/**
 * The current load of the chunk, started on the first call. `retry` starts a new one when the
 * last load failed (a failed load is kept until then, so a render never loops on retries).
 */
export function loadDialogUI(retry = false): ReactPromise<DialogUI | Error> {
  return chunk.load(retry)
}

/** The dialog UI, or why it failed to load; suspends (to the caller's `<Suspense>`) while it loads. */
export function useDialogUI(): DialogUI | Error {
  return use(chunk.load())
}

/**
 * Starts downloading the agent-dialog UI (dialog cards) now, so the first card renders without a
 * loading placeholder. `<MessageList>` and `<ChatSession>` call this themselves as soon as the
 * session has a live agent. Call it yourself to prefetch earlier, or `await` it before
 * `renderToString` so server HTML has full cards instead of placeholders. Idempotent; resolves
 * once the UI can render; rejects with the load's error (a later call tries again).
 */
export const preloadDialogUI: () => Promise<void> = chunk.preload

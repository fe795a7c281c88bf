import { use } from './react-api.js'
import type { ReactPromise } from 'react'
import { lazyChunk } from './lazy-chunk.js'
import type * as MessageUIModule from './message-ui.js'
import { lazyPresentationRules } from '../../src/view/presentation-loader.js'

/**
 * Loading the message UI chunk (message-ui.ts: markdown-to-jsx and the message body), as the dialog
 * UI loads, with the view's presentation rules (chatrail/view's presentation-kit.ts: the reply a
 * Regenerate is offered on, the versions, the failure), so a message is drawn once what it offers is known.
 */

export type MessageUI = typeof MessageUIModule

const chunk = lazyChunk(() => Promise.all([import('./message-ui.js'), lazyPresentationRules.load()]).then(([ui]) => ui))

export function loadMessageUI(retry = false): ReactPromise<MessageUI | Error> {
  return chunk.load(retry)
}

/** The message UI, or why it failed to load; suspends while it loads. */
export function useMessageUI(): MessageUI | Error {
  return use(chunk.load())
}

/**
 * Starts downloading the message UI (markdown renderer, copy and edit actions) now. `<MessageList>`
 * does so on mount, so it is in before the first reply; `await` it before `renderToString` to get
 * markdown in server HTML. Resolves once it can render; rejects with the load's error (a later
 * call retries).
 */
export const preloadMessageUI: () => Promise<void> = chunk.preload

import type * as CodeHighlightModule from '../../src/view/code-highlight.js'
import type { LazyChunk } from './lazy-chunk.js'
import type { MessageUIKit } from './message-ui-context.js'

/**
 * Loading the highlighter chunk (code-highlight.ts), as the message UI loads: only once a block with
 * a language renders. With the entry's `lazyChunk`, handed over in the kit (message-ui-context.ts).
 */

export type CodeHighlight = typeof CodeHighlightModule

let chunk: LazyChunk<CodeHighlight> | undefined

function chunkOf(kit: Pick<MessageUIKit, 'lazyChunk'>): LazyChunk<CodeHighlight> {
  chunk ??= kit.lazyChunk(() => import('../../src/view/code-highlight.js'))
  return chunk
}

/** The highlighter if it is already in (a later block renders highlighted at once), else undefined. */
export function loadedCodeHighlight(kit: Pick<MessageUIKit, 'lazyChunk'>): CodeHighlight | undefined {
  const request = chunkOf(kit).load()
  return request.status === 'fulfilled' && !(request.value instanceof Error) ? request.value : undefined
}

/** The highlighter once loaded, or its load's error; starts the load on the first call. */
export async function loadCodeHighlight(kit: Pick<MessageUIKit, 'lazyChunk'>): Promise<CodeHighlight | Error> {
  return chunkOf(kit).load()
}

/** Starts loading the highlighter now (tests, and a server that wants highlighted HTML). */
export function preloadCodeHighlight(kit: Pick<MessageUIKit, 'lazyChunk'>): Promise<void> {
  return chunkOf(kit).preload()
}

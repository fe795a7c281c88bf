import { lazyChunk } from './lazy-chunk.js'
import type * as CodeHighlightModule from './code-highlight.js'

/** Loading the highlighter chunk (code-highlight.ts), as the message UI loads: only once a block with a language renders. */

export type CodeHighlight = typeof CodeHighlightModule

const chunk = lazyChunk(() => import('./code-highlight.js'))

/** The highlighter if it is already in (a later block renders highlighted at once), else undefined. */
export function loadedCodeHighlight(): CodeHighlight | undefined {
  const request = chunk.load()
  return request.status === 'fulfilled' && !(request.value instanceof Error) ? request.value : undefined
}

/** The highlighter once loaded, or its load's error; starts the load on the first call. */
export async function loadCodeHighlight(): Promise<CodeHighlight | Error> {
  return chunk.load()
}

/** Starts loading the highlighter now (tests, and a server that wants highlighted HTML). */
export const preloadCodeHighlight: () => Promise<void> = chunk.preload

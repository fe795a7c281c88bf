import { use } from 'react'
import type { ReactPromise } from 'react'
import type * as ComponentUIModule from './component-ui.js'
import { lazyChunk } from './lazy-chunk.js'

/**
 * Loading the component UI chunk (component-ui.ts: the standard catalog's views and the props
 * check, with zod/mini), from the message UI chunk the first time a message holds a component:
 * a chat that never shows one never downloads it.
 */

export type ComponentUI = typeof ComponentUIModule

const chunk = lazyChunk(() => import('./component-ui.js'))

/** The component UI, or why it failed to load; suspends while it loads. */
export function useComponentUI(): ComponentUI | Error {
  return use(chunk.load())
}

export function loadComponentUI(retry = false): ReactPromise<ComponentUI | Error> {
  return chunk.load(retry)
}

/** Starts downloading the component UI now (resolves once it can render). */
export const preloadComponentUI: () => Promise<void> = chunk.preload

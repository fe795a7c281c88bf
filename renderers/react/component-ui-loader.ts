import { use } from 'react'
import type { ReactPromise } from 'react'
import type * as ComponentUIModule from './component-ui.js'
import type { LazyChunk } from './lazy-chunk.js'
import { useMessageUIKit } from './message-ui-context.js'
import type { MessageUIKit } from './message-ui-context.js'

/**
 * Loading the component UI chunk (component-ui.ts: the standard catalog's views and the props
 * check, with zod/mini), from the message UI chunk the first time a message holds a component:
 * a chat that never shows one never downloads it. With the entry's `lazyChunk` and the view's
 * `loadComponentRules`, handed over in the kit (message-ui-context.ts).
 */

export type ComponentUI = typeof ComponentUIModule

let chunk: LazyChunk<ComponentUI> | undefined

type ComponentUIKit = Pick<MessageUIKit, 'lazyChunk' | 'loadComponentRules'>

function chunkOf(kit: ComponentUIKit): LazyChunk<ComponentUI> {
  // with the view's component rules (chatrail/view): a part is drawn once whether it is answered is known
  chunk ??= kit.lazyChunk(() => Promise.all([import('./component-ui.js'), kit.loadComponentRules()]).then(([ui]) => ui))
  return chunk
}

/** The component UI, or why it failed to load; suspends while it loads. */
export function useComponentUI(): ComponentUI | Error {
  return use(chunkOf(useMessageUIKit()).load())
}

export function loadComponentUI(kit: ComponentUIKit, retry = false): ReactPromise<ComponentUI | Error> {
  return chunkOf(kit).load(retry)
}

/** Starts downloading the component UI now (resolves once it can render). */
export function preloadComponentUI(kit: ComponentUIKit): Promise<void> {
  return chunkOf(kit).preload()
}

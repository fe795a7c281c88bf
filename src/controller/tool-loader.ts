import type { ChatConfig } from '../contract/chat.js'
import { isLiveAgentAdapter } from '../contract/live-agent-adapter.js'
import { lazyModule } from './lazy-module.js'
import type * as ToolHandling from './tool-handling.js'

/**
 * Loads tool-handling.ts on first use, once per process. Until then nothing has a tool call to
 * handle: a provider's `tool_result` settles only a call a `tool_call` chunk recorded (which loaded
 * the module first), so `loadedToolHandling` answering `undefined` means there is nothing to settle.
 * Once loaded, `withToolHandling` calls straight through, so a call's synchronous start (an approval
 * marking the call `running`) happens in the caller's tick, as before the split. A chat whose turns
 * can call tools starts loading it when its controller is made (`prefetchToolHandling`), so its first
 * tool call does not wait for the module; a chat that cannot never loads it.
 */

export type ToolHandlingModule = typeof ToolHandling

const toolHandling = lazyModule(() => import('./tool-handling.js'))

/** The module when it is loaded, else `undefined` (no tool call has been handled yet). */
export const loadedToolHandling: () => ToolHandlingModule | undefined = toolHandling.loaded

/** Loads the module (once; later calls share the first's promise, and a failed load is tried again). */
export const loadToolHandling: () => Promise<ToolHandlingModule> = toolHandling.load

/**
 * Starts loading the module in the background for a chat whose turns can call tools: declared
 * tools, an adapter that says it calls them (`capabilities.tools`), or a live agent (it runs its own
 * and reports them as tool calls). A failure here is left to the first tool call, which loads again.
 */
export function prefetchToolHandling(config: Pick<ChatConfig, 'tools' | 'adapter'>): void {
  const adapter = config.adapter
  if ((config.tools?.length ?? 0) > 0 || adapter?.capabilities?.tools === true || (adapter !== undefined && isLiveAgentAdapter(adapter))) loadToolHandling().catch(() => undefined)
}

/** Runs `use` with the module: at once when it is loaded, else once it is. */
export function withToolHandling<T>(use: (module: ToolHandlingModule) => Promise<T>): Promise<T> {
  const loaded = toolHandling.loaded()
  return loaded ? use(loaded) : toolHandling.load().then(use)
}

import type { ToolDefinition } from '../contract/tool.js'

/**
 * The tools a turn can call: `config.tools` plus skill tools (a skill tool wins a name clash),
 * each `init`ed lazily once per definition object, with running executions tracked so `clear()`
 * can wait for them before calling `dispose`. After `clear()` tools work again (re-`init` on next
 * use); upstream retired them for good (§2.15).
 */
export interface ToolRuntime {
  find: (name: string) => ToolDefinition | undefined
  list: () => ToolDefinition[]
  /** Rebuilds the registry after `config.tools` or the skill tools changed. */
  rebuild: (configTools: readonly ToolDefinition[] | undefined, skillTools: readonly ToolDefinition[]) => void
  /** Runs `init` once per tool definition; concurrent callers share one promise. */
  ensureInitialized: (tool: ToolDefinition) => Promise<void>
  /** Tracks an execution so `disposeAll` waits for it. */
  track: <T>(work: Promise<T>) => Promise<T>
  /** Waits for running executions, then calls `dispose` on every initialized tool (errors swallowed). */
  disposeAll: () => Promise<void>
}

export function createToolRuntime(): ToolRuntime {
  let registry = new Map<string, ToolDefinition>()
  let initialized = new Map<ToolDefinition, Promise<void>>()
  const running = new Set<Promise<unknown>>()

  return {
    find: (name) => registry.get(name),
    list: () => [...registry.values()],
    rebuild: (configTools, skillTools) => {
      // Later entries win a name clash: skill tools override config tools.
      registry = new Map([...(configTools ?? []), ...skillTools].map((tool) => [tool.name, tool]))
    },
    ensureInitialized: (tool) => {
      let pending = initialized.get(tool)
      if (!pending) {
        pending = Promise.resolve().then(() => tool.init?.())
        initialized.set(tool, pending)
        // A failed init is retried on the next use rather than cached forever.
        pending.catch(() => initialized.delete(tool))
      }
      return pending
    },
    track: (work) => {
      running.add(work)
      const forget = (): void => {
        running.delete(work)
      }
      work.then(forget, forget)
      return work
    },
    disposeAll: async () => {
      await Promise.allSettled([...running])
      const tools = [...initialized.keys()]
      initialized = new Map()
      await Promise.allSettled(tools.map(async (tool) => tool.dispose?.()))
    },
  }
}

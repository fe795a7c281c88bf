import type { ToolDefinition } from '../contract/tool.js'
import type { ToolLifecycle } from './tool-lifecycle.js'

/**
 * The tools a turn can call: `config.tools` plus skill tools (a skill tool wins a name clash).
 * Their lifecycle (each `init`ed lazily once, running executions tracked, replaced ones disposed:
 * tool-lifecycle.ts) begins with the first execution, so it comes with the tool handling, loaded on
 * the first tool call (tool-loader.ts); a chat that never runs a tool has nothing to dispose.
 */
export interface ToolRuntime {
  find: (name: string) => ToolDefinition | undefined
  list: () => ToolDefinition[]
  /**
   * Rebuilds the registry after `config.tools` or the skill tools changed. An initialized tool
   * that no longer has a same-named successor with the same `init`, `dispose` and `execute` is
   * retired: disposed once its running executions settle. One that does hands its lifecycle on.
   */
  rebuild: (configTools: readonly ToolDefinition[] | undefined, skillTools: readonly ToolDefinition[]) => void
  /** Waits for running executions, then calls `dispose` on every initialized tool (errors swallowed). */
  disposeAll: () => Promise<void>
  /** The tools' lifecycle, from the first execution on (`lifecycleOf` in tool-lifecycle.ts makes it). */
  lifecycle: ToolLifecycle | undefined
}

export function createToolRuntime(): ToolRuntime {
  let registry = new Map<string, ToolDefinition>()
  const runtime: ToolRuntime = {
    find: (name) => registry.get(name),
    list: () => [...registry.values()],
    rebuild: (configTools, skillTools) => {
      // Later entries win a name clash: skill tools override config tools.
      registry = new Map([...(configTools ?? []), ...skillTools].map((tool) => [tool.name, tool]))
      runtime.lifecycle?.retire(registry)
    },
    disposeAll: async () => {
      await runtime.lifecycle?.disposeAll()
    },
    lifecycle: undefined,
  }
  return runtime
}

import type { ToolDefinition } from '../contract/tool.js'
import type { ToolRuntime } from './tool-runtime.js'

/**
 * The lifecycle of a chat's tools, each `init`ed lazily once, with running executions tracked so
 * a tool is never disposed under one. Two things dispose tools: `clear()` disposes every
 * initialized tool (they re-`init` on next use; upstream retired them for good, §2.15), and a
 * rebuild that replaces a tool disposes the old one once its running executions settle. Every
 * `init` is matched by at most one `dispose`.
 */
export interface ToolLifecycle {
  /** Runs `init` once per tool; concurrent callers share one promise. */
  ensureInitialized: (tool: ToolDefinition) => Promise<void>
  /** Tracks an execution of `tool` so disposal waits for it. */
  track: <T>(tool: ToolDefinition, work: Promise<T>) => Promise<T>
  /**
   * After a rebuild to `registry`: an initialized tool that no longer has a same-named successor
   * with the same `init`, `dispose` and `execute` is disposed once its running executions settle;
   * one that does hands its lifecycle on.
   */
  retire: (registry: ReadonlyMap<string, ToolDefinition>) => void
  /** Waits for running executions, then calls `dispose` on every initialized tool (errors swallowed). */
  disposeAll: () => Promise<void>
}

/** The lifecycle of `runtime`'s tools, made on first use (the first execution). */
export function lifecycleOf(runtime: ToolRuntime): ToolLifecycle {
  return (runtime.lifecycle ??= createToolLifecycle())
}

/** Same lifecycle: a rebuilt definition object carrying the very same functions is the same tool. */
const sameLifecycle = (a: ToolDefinition, b: ToolDefinition): boolean =>
  a.name === b.name && a.init === b.init && a.dispose === b.dispose && a.execute === b.execute

function createToolLifecycle(): ToolLifecycle {
  let initialized = new Map<ToolDefinition, Promise<void>>()
  const running = new Map<Promise<unknown>, ToolDefinition>()

  /** Waits for `tools`' running executions (all of them when omitted), then disposes each whose init succeeded. */
  const dispose = async (tools: ReadonlyMap<ToolDefinition, Promise<void>>): Promise<void> => {
    await Promise.allSettled([...running].filter(([, tool]) => tools.has(tool)).map(([work]) => work))
    await Promise.allSettled(
      [...tools].map(async ([tool, init]) => {
        await init
        await tool.dispose?.()
      }),
    )
  }

  return {
    ensureInitialized: (tool) => {
      let pending = initialized.get(tool)
      if (!pending) {
        const attempt = Promise.resolve().then(() => tool.init?.())
        pending = attempt
        initialized.set(tool, attempt)
        // A failed init is retried on the next use rather than cached forever.
        // (A rebuild may have handed the attempt on to a successor: forget it under any key.)
        attempt.catch(() => {
          for (const [key, value] of initialized) if (value === attempt) initialized.delete(key)
        })
      }
      return pending
    },
    track: (tool, work) => {
      running.set(work, tool)
      const forget = (): void => {
        running.delete(work)
      }
      work.then(forget, forget)
      return work
    },
    retire: (registry) => {
      const retired = new Map<ToolDefinition, Promise<void>>()
      for (const [tool, init] of initialized) {
        const successor = registry.get(tool.name)
        if (successor === tool) continue
        initialized.delete(tool)
        if (successor && sameLifecycle(tool, successor) && !initialized.has(successor)) initialized.set(successor, init)
        else retired.set(tool, init)
      }
      if (retired.size > 0) void dispose(retired)
    },
    disposeAll: async () => {
      const tools = initialized
      initialized = new Map()
      await Promise.allSettled([...running.keys()])
      await dispose(tools)
    },
  }
}

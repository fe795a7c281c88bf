import { existsSync, watch } from 'node:fs'
import type { FSWatcher } from 'node:fs'

/**
 * File-system events that wake the monitor early. Only a hint: the polling timer runs regardless,
 * so a missed event (an unsupported file system, an exhausted inotify budget, a root created later)
 * costs at most one poll interval. A root that does not exist yet is watched once it does (each
 * `sync`); a watcher that errors is closed and its root left to polling for good.
 */
export interface RootWatcher {
  /** Starts watching the roots that exist and are not watched yet. */
  sync: (roots: readonly string[]) => void
  close: () => void
  /** `events` while at least one watcher is open, else `polling`. */
  mode: () => 'events' | 'polling'
}

export function createRootWatcher(onChange: () => void, onError: (message: string) => void): RootWatcher {
  const watchers = new Map<string, FSWatcher>()
  const failed = new Set<string>()

  function fail(root: string, error: unknown): void {
    watchers.get(root)?.close()
    watchers.delete(root)
    failed.add(root)
    onError(`watching ${root} failed (${error instanceof Error ? error.message : String(error)}); polling it instead`)
  }

  return {
    sync(roots) {
      for (const root of roots) {
        if (watchers.has(root) || failed.has(root) || !existsSync(root)) continue
        try {
          // Not persistent: a started monitor's poll timer is what keeps a process alive.
          const watcher = watch(root, { recursive: true, persistent: false }, () => onChange())
          watcher.on('error', (error) => fail(root, error))
          watchers.set(root, watcher)
        } catch (error) {
          fail(root, error)
        }
      }
    },
    close() {
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
    mode: () => (watchers.size > 0 ? 'events' : 'polling'),
  }
}

/**
 * A module loaded on first use, once per page or process: the `import()` a bundler splits off into
 * a chunk of its own, so that what only some chats or some moments need stays out of an app's
 * initial load (issue 32). Every caller shares the first load's promise; a failed load (a network
 * failure, a stale deploy) is forgotten, so the next call tries again.
 */
export interface LazyModule<T> {
  /** The module when it is loaded, else `undefined`. */
  readonly loaded: () => T | undefined
  /** Loads the module: at most once at a time, again after a failure. */
  readonly load: () => Promise<T>
}

/** `importer` is the `import('./module.js')` itself, written out where the module is named. */
export function lazyModule<T>(importer: () => Promise<T>, onLoad?: (module: T) => void): LazyModule<T> {
  let loading: Promise<T> | undefined
  let loaded: T | undefined
  return {
    loaded: () => loaded,
    load: () => (loading ??= importer().then(
      (module) => {
        loaded = module
        onLoad?.(module)
        return module
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )),
  }
}

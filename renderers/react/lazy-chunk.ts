import type { ReactPromise } from 'react'

/**
 * One lazily loaded chunk (the dialog UI, the message UI): the `import()` a bundler splits off,
 * read with React's `use()`. A load never rejects (a failed one resolves to its error, so the
 * caller can show a fallback), and `status` / `value` are set as soon as it settles: that is the
 * protocol `use()` reads, so once the chunk is in, everything renders synchronously, with no
 * Suspense fallback and no height change a tick later.
 */
export interface LazyChunk<T> {
  /** The current load, started on the first call; `retry` starts a new one after a failed load. */
  load: (retry?: boolean) => ReactPromise<T | Error>
  /** Starts a load if needed; resolves once the chunk can render, rejects with the load's error (a later call retries). */
  preload: () => Promise<void>
}

export function lazyChunk<T>(importer: () => Promise<T>): LazyChunk<T> {
  let request: ReactPromise<T | Error> | undefined
  const load = (retry = false): ReactPromise<T | Error> => {
    if (request === undefined || (retry && request.status === 'fulfilled' && request.value instanceof Error)) {
      const started = importer().catch((failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))))
      void started.then((value) => Object.assign(started, { status: 'fulfilled', value }))
      request = started
    }
    return request
  }
  return {
    load,
    preload: async () => {
      const loaded = await load(true)
      if (loaded instanceof Error) throw loaded
    },
  }
}

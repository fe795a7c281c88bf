import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * One API read for a view: loads when `key` changes, aborts the previous load, and keeps the last
 * value while a reload runs (a live update never blanks the screen). `reload` reads again with the
 * same key. The value is dropped only when the key changes (another conversation).
 */

export type Resource<T> =
  | { readonly status: 'loading'; readonly value?: undefined; readonly error?: undefined }
  | { readonly status: 'ready'; readonly value: T; readonly error?: undefined }
  | { readonly status: 'failed'; readonly value?: T; readonly error: Error }

export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> & { reload: () => void } {
  const [state, setState] = useState<{ key: string; resource: Resource<T> }>({ key, resource: { status: 'loading' } })
  const [generation, setGeneration] = useState(0)
  const loadRef = useRef(load)
  loadRef.current = load
  useEffect(() => {
    const controller = new AbortController()
    loadRef.current(controller.signal).then(
      (value) => { if (!controller.signal.aborted) setState({ key, resource: { status: 'ready', value } }) },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const failure = error instanceof Error ? error : new Error(String(error))
        setState((previous) => ({ key, resource: { status: 'failed', error: failure, ...(previous.key === key && previous.resource.value !== undefined ? { value: previous.resource.value } : {}) } }))
      },
    )
    return () => controller.abort()
  }, [key, generation])
  const reload = useCallback(() => setGeneration((count) => count + 1), [])
  const resource: Resource<T> = state.key === key ? state.resource : { status: 'loading' }
  return { ...resource, reload }
}

/**
 * Whether a callback returned a promise (any thenable), so that sync callbacks keep a sync path and
 * async ones are awaited. Pure.
 */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof value === 'object' && value !== null && typeof (value as Promise<T>).then === 'function'
}

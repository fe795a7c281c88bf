import type { AgentEvent, Observer } from '../contract/observer.js'

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'

/** Swallows the rejection of a promise-like `value` (an observer's, an iterator's `return()`); anything else is left alone. */
export function ignoreRejection(value: unknown): void {
  if (isThenable(value)) value.then(undefined, () => undefined)
}

/**
 * Delivers an event to every observer in order. A throwing or rejecting observer is isolated:
 * it neither stops the others nor reaches the controller (upstream swallows these too).
 */
export function emitEvent(observers: readonly Observer[] | undefined, event: AgentEvent): void {
  if (!observers) return
  for (const observer of observers) {
    try {
      ignoreRejection(observer.on(event))
    } catch {
      // isolated by design
    }
  }
}

/** Calls an app callback (`onMessage`, `onError`) so that a throw cannot break a turn. */
export function invokeCallback<A>(callback: ((arg: A) => void) | undefined, arg: A): void {
  if (!callback) return
  try {
    callback(arg)
  } catch {
    // isolated by design: the controller's state is already consistent
  }
}

import type { Route } from './routes.js'
import type { TurnControl } from './session-core.js'

/**
 * Waiting for an asynchronous route callback (a `match`, `response` or `refuse` that returned a
 * promise) and for a fallback after a route's timeout: the timer and the stop. Loaded by the first
 * callback that returns a promise (load-route-wait.ts), so an app whose routes answer synchronously
 * never carries it (issue 32). Imports types only (turn-kit.ts says why): what it needs from the
 * session's modules is handed in.
 */

export const DEFAULT_ROUTE_TIMEOUT_MS = 30_000

/**
 * The promise, or `timedOut` once the route's `routeTimeoutMs` has passed (`onTimeout` runs first)
 * or `signal` aborts — at once if it already has (an abort listener added then would never fire).
 * The timer starts when this is called: a first asynchronous callback's limit counts from when
 * this module has loaded, a few milliseconds after the callback returned.
 */
export function within<T, S>(
  promise: Promise<T>,
  route: Pick<Route, 'routeTimeoutMs'>,
  settings: { readonly routeTimeoutMs?: number },
  signal: AbortSignal,
  onTimeout: () => void,
  timedOut: S,
): Promise<T | S> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stop!: () => void
  const limit = new Promise<S>((resolve) => {
    stop = () => resolve(timedOut)
    if (signal.aborted) return stop()
    timer = setTimeout(() => {
      onTimeout()
      stop()
    }, route.routeTimeoutMs ?? settings.routeTimeoutMs ?? DEFAULT_ROUTE_TIMEOUT_MS)
    // Ref'd on purpose: while a route is pending, its timeout is what answers the turn, so it must
    // keep the process alive (unref'd, a script awaiting a hung route exited with code 13 and no
    // answer). It never outlives the route: cleared below when the route settles or the turn stops.
    signal.addEventListener('abort', stop, { once: true })
  })
  return Promise.race([promise, limit]).finally(() => {
    clearTimeout(timer)
    signal.removeEventListener('abort', stop)
  })
}

/** `promise`'s value, or undefined as soon as the turn is stopped (the promise is left to settle alone). */
export function untilStopped<T>(kit: { readonly turnSignal: (control: TurnControl) => AbortSignal }, promise: Promise<T>, control: TurnControl): Promise<T | undefined> {
  if (control.aborted) return Promise.resolve(undefined)
  const signal = kit.turnSignal(control)
  let onAbort: (() => void) | undefined
  const stopped = new Promise<undefined>((resolve) => {
    // The signal also aborts on a route timeout; only a stop ends the wait.
    onAbort = () => control.aborted && resolve(undefined)
    signal.addEventListener('abort', onAbort)
  })
  return Promise.race([promise, stopped]).finally(() => onAbort && signal.removeEventListener('abort', onAbort))
}

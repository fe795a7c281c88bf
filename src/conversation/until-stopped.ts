import { turnSignal, type TurnControl } from './session-core.js'

/** `promise`'s value, or undefined as soon as the turn is stopped (the promise is left to settle alone). */
export function untilStopped<T>(promise: Promise<T>, control: TurnControl): Promise<T | undefined> {
  if (control.aborted) return Promise.resolve(undefined)
  const signal = turnSignal(control)
  let onAbort: (() => void) | undefined
  const stopped = new Promise<undefined>((resolve) => {
    // The signal also aborts on a route timeout; only a stop ends the wait.
    onAbort = () => control.aborted && resolve(undefined)
    signal.addEventListener('abort', onAbort)
  })
  return Promise.race([promise, stopped]).finally(() => onAbort && signal.removeEventListener('abort', onAbort))
}

import type { ActionPolicyTrace } from '../contract/action-confirmation.js'
import { isPromise } from './is-promise.js'

/**
 * Turn traces: decision metadata for every turn of a session, never prompt or response text.
 * The log is bounded; observers are best-effort and can never affect a dispatch.
 */

export type TurnKind = 'deterministic' | 'agentic' | 'repaired' | 'fallback'
/**
 * `refused`: a guard refused and the route's `refuse` re-prompt (or a form's re-prompt) answered;
 * `unavailable`: a UI event the current state does not take (a stale button) got the
 * `conversation.unavailable` answer; `timeout`: a route ran past `routeTimeoutMs` and the fallback
 * answered. None of the three changes the state.
 */
export type TurnOutcome = 'ok' | 'error' | 'aborted' | 'refused' | 'unavailable' | 'timeout'

export interface TurnTrace {
  readonly kind: TurnKind
  readonly outcome: TurnOutcome
  readonly routeId?: string
  readonly event?: string
  readonly fromState: string
  readonly toState: string
  readonly sessionId: string
  readonly turnId: string
  readonly messageId?: string
  /** True when a cached decision answered (retry/regenerate): no route callback, no model call. */
  readonly replayed: boolean
  /** ISO time the turn started (from the session's clock). */
  readonly at: string
  readonly durationMs: number
  /** Why a proposal was repaired or a turn failed, as a fixed phrase (never user text). */
  readonly reason?: string
  /** The class name of the error behind an `error` outcome or a `fallback` (never its message). */
  readonly errorClass?: string
  /** Decision records in this turn's history that the session ignored: unsigned or forged (sessions with a `recordKey`). */
  readonly untrustedRecords?: number
  /** Turns since the last trace that were re-decided from their text because their record was not trusted. */
  readonly rederivedTurns?: number
  /**
   * Capability-policy decisions (`session.withPolicy`) made during this turn or since the previous
   * trace: action names, phases and reasons only, never an input or a context; at most 32.
   */
  readonly policy?: readonly ActionPolicyTrace[]
  /** Where the turn's time went, from the session's clock; only from a session made with `timings: true`. */
  readonly timings?: TurnTimings
}

/**
 * A turn's phases in milliseconds of the session's clock. `routeMs`: from the turn's start until its
 * routes were resolved (a match, a miss, a failure or a timeout; 0 for a continuation, which has
 * none to resolve). For a turn that called the agentic adapter, `adapterFirstChunkMs` (from the
 * call to its first chunk, when one came) and `adapterMs` (from the call to the turn's end). A
 * replayed turn resolves nothing and calls nothing: it has no timings.
 */
export interface TurnTimings {
  readonly routeMs: number
  readonly adapterFirstChunkMs?: number
  readonly adapterMs?: number
  /** The server's write of the turn (chatrail/server's live trace only: a stored answer cannot carry the time of its own write). */
  readonly storeMs?: number
}

/** The clock readings behind `TurnTimings`, taken while a turn runs (NaN: not reached). */
export interface TurnTiming {
  resolvedAt: number
  adapterAt: number
  firstChunkAt: number
}

/** The timings the readings give for a turn that started at `startedAt` and ended at `endedAt`; undefined when its routes were never resolved. */
export function timingsOf(timing: TurnTiming, startedAt: number, endedAt: number): TurnTimings | undefined {
  if (Number.isNaN(timing.resolvedAt)) return undefined
  const routeMs = Math.max(0, timing.resolvedAt - startedAt)
  if (Number.isNaN(timing.adapterAt)) return { routeMs }
  const adapterMs = Math.max(0, endedAt - timing.adapterAt)
  return Number.isNaN(timing.firstChunkAt) ? { routeMs, adapterMs } : { routeMs, adapterFirstChunkMs: Math.max(0, timing.firstChunkAt - timing.adapterAt), adapterMs }
}

export type TraceListener = (trace: TurnTrace) => void | Promise<void>

/** Calls each observer, swallowing sync throws and async rejections alike. */
export function notifyTraceListeners(listeners: readonly (TraceListener | undefined)[], trace: TurnTrace): void {
  for (const listener of listeners) {
    if (!listener) continue
    try {
      const result = listener(trace)
      if (isPromise(result)) result.then(undefined, () => undefined)
    } catch {
      // Observers are best-effort (seed 004): their failure never reaches the turn.
    }
  }
}

let minuteKey = Number.NaN
let minutePrefix = ''

/**
 * `new Date(ms).toISOString()`, without building a Date per call: the `YYYY-MM-DDTHH:MM:` part is
 * cached per minute (formatting a Date costs more than a whole deterministic turn). Pure.
 */
export function isoTime(ms: number): string {
  if (!Number.isFinite(ms)) return new Date(Number.NaN).toString()
  const minute = Math.floor(ms / 60_000)
  if (minute !== minuteKey) {
    minuteKey = minute
    minutePrefix = new Date(minute * 60_000).toISOString().slice(0, -7)
  }
  const rest = ms - minute * 60_000
  const seconds = Math.floor(rest / 1000)
  const millis = Math.floor(rest - seconds * 1000)
  return `${minutePrefix}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
}

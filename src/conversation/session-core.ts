import type { AdapterFactory } from '../contract/adapter.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import type { StreamSource } from '../contract/stream.js'
import type { Timeline } from './decisions.js'
import type { ChatDefinition } from './definition.js'
import type { JsonObject } from './json.js'
import type { Machine } from './machine.js'
import type { RouteIndex } from './route-index.js'
import type { RecordedTurn } from './trace-log.js'

/** What a turn needs from its session (the session implements it; turns never see the rest). */
export interface SessionCore<Ctx extends JsonObject> {
  readonly sessionId: string
  readonly definition: ChatDefinition<Ctx>
  readonly machine: Machine<Ctx>
  readonly index: RouteIndex<Ctx>
  readonly timeline: Timeline<Ctx>
  adapter: () => AdapterFactory | undefined
  /** A new turn's id: the session's next turn number (its id is `turnId(n)`, built when read), or an id from `options.ids`. */
  newTurn: () => number | string
  turnId: (turn: number) => string
  now: () => number
  /** The session records `trace.timings` (its option `timings`): turns take the clock readings for them. */
  readonly timings: boolean
  /** Records a finished turn (with its duration and record counts) and notifies observers. */
  trace: (turn: RecordedTurn) => void
  /** The timeline changed: recompute the snapshot and notify subscribers. */
  changed: () => void
  disposed: () => boolean
  /** The session's confirmation coordinator (its option `confirmations`), handed to route callbacks. */
  readonly confirmations?: ActionConfirmationCoordinator | undefined
}

/** Mutable per-turn state shared with `abort()` (A6: abort never throws, whenever it is called). */
export interface TurnControl {
  aborted: boolean
  inner: StreamSource | undefined
  /** Records the `aborted` trace at once (a consumer may stop without ever resuming the stream). */
  recorder: { abort: () => void } | undefined
  /** Route callbacks' `ctx.signal`, created on first use; aborted on stop and on a route timeout. */
  routes: AbortController | undefined
}

/** The turn's `ctx.signal` (its controller is created on first use, already aborted after a stop). */
export function turnSignal(control: TurnControl): AbortSignal {
  if (!control.routes) {
    control.routes = new AbortController()
    if (control.aborted) control.routes.abort()
  }
  return control.routes.signal
}

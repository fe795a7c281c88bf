import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import type { Route, RouteContext } from './routes.js'

/** What a resolution is (decide.ts resolves routes, form.ts form slots): data the turn applies. */

/** What route callbacks see of this turn (`match` is added for pattern routes). */
export type TurnContext<Ctx extends JsonObject> = Omit<RouteContext<Ctx>, 'match'>

/** A deterministic answer: a route fired (or a form, or a stale UI event answered). */
export interface Answer<Ctx extends JsonObject> {
  readonly type: 'match'
  /** Undefined for a form turn and a stale UI event. */
  readonly route: Route<Ctx> | undefined
  /** The machine event fired; undefined when the state did not transition. */
  readonly event: string | undefined
  readonly restart?: true
  readonly after: MachineState<Ctx>
  readonly assign: Partial<Ctx> | undefined
  readonly chunks: readonly StreamChunk[]
  readonly outcome?: 'refused' | 'unavailable'
  readonly reason?: string
}

/** A route (or a form) failed: nothing is committed, the turn ends in error (route-failure.ts words it). */
export interface Failure<Ctx extends JsonObject> {
  readonly type: 'failed'
  /** Undefined for a form. */
  readonly route: Route<Ctx> | undefined
  /** The trace's fixed reason (`response-threw`, `transition-refused:guard-refused`, …). */
  readonly reason: string
  /** What the callback threw or rejected with, or the machine's refusal's error. */
  readonly cause: unknown
  /** What the error's message says failed, when not the reason's own phrase. */
  readonly phrase: string | undefined
}

export type Resolution<Ctx extends JsonObject> =
  | Answer<Ctx>
  | Failure<Ctx>
  | { readonly type: 'timeout'; readonly route: Route<Ctx> }
  | { readonly type: 'miss' }

/**
 * A route (or form) that could not answer, as data: why (`reason`), its cause, and the phrase its
 * error names, when not the reason's own. The `ChatrailRouteError` and its words are built where the
 * failure is reported (route-failure.ts: the turn's error chunk, `explainTurn`), which load on first
 * use, so an app whose routes answer never carries them (issue 32).
 */
export function failed<Ctx extends JsonObject>(route: Route<Ctx> | undefined, reason: string, cause?: unknown, phrase?: string): Resolution<Ctx> {
  return { type: 'failed', route, reason, cause, phrase }
}

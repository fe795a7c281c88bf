import type { StreamChunk } from '../contract/stream.js'
import type { JsonObject } from './json.js'
import type { MachineState } from './machine.js'
import { ChatrailRouteError } from './route-error.js'
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

export type Resolution<Ctx extends JsonObject> =
  | Answer<Ctx>
  | { readonly type: 'failed'; readonly route: Route<Ctx> | undefined; readonly error: ChatrailRouteError; readonly reason: string }
  | { readonly type: 'timeout'; readonly route: Route<Ctx> }
  | { readonly type: 'miss' }

const PHRASES: Record<string, string> = {
  'match-threw': 'its match function threw',
  'guard-threw': 'its guard threw',
  'response-threw': 'its response threw',
  'pattern-assign-threw': 'its assign function threw',
  'invalid-output': 'its response returned something other than a string or { text, chunks, assign }',
  'assign-not-json': 'its assign is not JSON',
  // without the registry the session cannot keep components from the adapter's view of history
  'components-undeclared': 'its response holds a component, but the definition names no `components` (pass the registry: defineChat({ components: defineComponents([...]) }))',
}

export function failed<Ctx extends JsonObject>(route: Route<Ctx> | undefined, reason: string, cause?: unknown, phrase = PHRASES[reason] ?? reason, routeId = route?.id ?? 'form'): Resolution<Ctx> {
  const error = new ChatrailRouteError({ routeId, message: `Route "${routeId}" failed: ${phrase}.`, cause })
  return { type: 'failed', route, error, reason }
}


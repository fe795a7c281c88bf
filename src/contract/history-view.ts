import type { AdapterRequest } from './adapter.js'
import type { Message } from './message.js'

/**
 * A request's history read by index, without its array. chatrail's controller builds
 * `request.messages` only when someone reads it (an O(history) copy); the session reads the few
 * newest messages a turn needs through this view instead, so a turn costs the same at 100,000
 * turns as at 1,000 (issue 20's soak). `Array` satisfies it, so any request works.
 */
export interface HistoryView {
  readonly length: number
  at: (index: number) => Message | undefined
}

/** A registered symbol: the controller and the session may come from two copies of chatrail. */
export const HISTORY_VIEW: unique symbol = Symbol.for('chatrail.historyView') as never

/**
 * The request's history view when its builder attached one (non-enumerable: spreads and JSON
 * leave it out, and a copied request falls back to its array), else `request.messages` itself.
 * Only an own view counts: a request derived with `Object.create(request, { messages })` (a
 * wrapper that redacts history) must not be read through the original's.
 */
export function historyOf(request: AdapterRequest): HistoryView {
  // Read first (a request without a view, the common case, answers from its inline cache), then
  // checked to be the request's own: one inherited through an `Object.create` wrapper is not.
  const read = (request as { [HISTORY_VIEW]?: unknown })[HISTORY_VIEW]
  const view = read !== undefined && Object.hasOwn(request, HISTORY_VIEW) ? read : undefined
  if (typeof view === 'object' && view !== null && typeof (view as HistoryView).at === 'function' && typeof (view as HistoryView).length === 'number') return view as HistoryView
  return request.messages
}

/** A plain array of a view's messages (an array view is returned as is). */
export function historyArray(history: HistoryView): readonly Message[] {
  if (Array.isArray(history)) return history as readonly Message[]
  return Array.from({ length: history.length }, (_, index) => history.at(index) as Message)
}

import type { ActionPolicyTrace } from '../contract/action-confirmation.js'
import type { ActionConfirmationOptions } from './action-confirmation.js'

/**
 * The options of a session's actions (session-actions.ts) and what the session hands them, in a
 * file of their own: the module those actions load on first use (session-actions-loaded.ts) takes
 * them too, and importing them from session-actions.ts would close an import circle.
 */

export interface SessionActionsDeps {
  readonly sessionId: string
  /** The definition's states, with the `actions` each offers (a state gate when any declares some). */
  readonly states: ReadonlyMap<string, { readonly actions: readonly string[] }>
  /** The session's current state. */
  readonly state: () => string
  /** The last traced turn's id. */
  readonly lastTurnId: () => string | undefined
  readonly now: () => number
}

export interface PolicyOptions {
  /** How many decisions `getTrace()` keeps. Default 100. */
  readonly maxTrace?: number
  /** Also called for every decision (failures ignored). */
  readonly onTrace?: (trace: ActionPolicyTrace) => void
}

export type SessionConfirmationOptions = Omit<ActionConfirmationOptions, 'sessionId'>

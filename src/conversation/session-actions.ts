import type { ActionPolicyTrace, ConfirmationChange } from '../contract/action-confirmation.js'
import type { ToolAuthorizer } from '../contract/tool.js'
import type { ActionConfirmationCoordinator } from './action-confirmation.js'
import type { ActionPolicy, CapabilityRequirements, ContextReader } from './capability-policy.js'
import { actionKit } from './action-kit.js'
import { lazyObject } from './lazy-object.js'
import type * as LoadedActions from './session-actions-loaded.js'
import type { PolicyOptions, SessionActionsDeps, SessionConfirmationOptions } from './session-actions-options.js'

/**
 * A session's actions: capability policies bound to its id and its current state, and confirmation
 * coordinators for its id. Their policy decisions wait here for the next turn's trace (at most
 * `MAX_TURN_POLICY` of them; the oldest are dropped first).
 *
 * The policy and the coordinator are loaded on first use (`import()`), like `explain`: a session
 * that never confirms an action does not ship them (≈ 14 kB minified, a fifth of the minimal app).
 * What is returned is usable at once: its asynchronous methods wait for the module, its synchronous
 * reads (`getTrace`, `getSnapshot`) answer empty until it is loaded, which starts when it is
 * created; `getByToolCall` answers from the session's stored records meanwhile (a resumed
 * session). Invalid arguments reject the first call (and every later one) with the
 * `ChatrailConfigError` `createCapabilityPolicy` / `createActionConfirmation` would throw: checking
 * them here as well cost the session's chunk more than the rest of this file.
 */

export const MAX_TURN_POLICY = 32

export type { PolicyOptions, SessionActionsDeps, SessionConfirmationOptions } from './session-actions-options.js'

export interface SessionActions {
  withPolicy: (requirements: CapabilityRequirements, getContext: ContextReader, options?: PolicyOptions) => ActionPolicy
  createConfirmation: (options: SessionConfirmationOptions) => ActionConfirmationCoordinator
  /** The decisions since the last call (for the turn's trace), or undefined when none. */
  takePolicyTrace: () => readonly ActionPolicyTrace[] | undefined
}

/** What the session's chunk loads on first use (once per policy or coordinator made, never per turn). */
const loadActions = (): Promise<typeof LoadedActions> => import('./session-actions-loaded.js')

/** A policy whose module loads on first use (see above). */
function lazyPolicy(loading: Promise<ActionPolicy>): ActionPolicy {
  let loaded: ActionPolicy | undefined
  loading = loading.then((policy) => (loaded = policy))
  loading.catch(() => undefined)
  const compose = (authorizer?: ToolAuthorizer): ToolAuthorizer => {
    let composed: ToolAuthorizer | undefined
    return async (call, context) => (composed ??= (await loading).compose(authorizer))(call, context)
  }
  return lazyObject(() => loading, 'check require', { authorizeToolCall: compose(), compose, getTrace: () => loaded?.getTrace() ?? [] })
}

/** A coordinator whose module loads on first use (see above); its change listeners are its own (the loaded module tells them). */
function lazyCoordinator(deps: SessionActionsDeps, options: SessionConfirmationOptions): ActionConfirmationCoordinator {
  const listeners = new Set<(change: ConfirmationChange) => void>()
  const sessionId = deps.sessionId
  let loaded: ActionConfirmationCoordinator | undefined
  let disposed = false
  const loading = loadActions().then(({ sessionConfirmation }) => {
    const coordinator = sessionConfirmation(actionKit, deps, options, listeners)
    if (disposed) coordinator.dispose()
    return (loaded = coordinator)
  })
  loading.catch(() => undefined)
  return lazyObject(() => loading, 'propose approve reject get list sweepExpired reconcile', {
    sessionId,
    getByToolCall: (toolCallId) => (loaded ? loaded.getByToolCall(toolCallId) : options.ledger?.peekByToolCall?.(sessionId, toolCallId)),
    getSnapshot: () => loaded?.getSnapshot() ?? [],
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    dispose() {
      disposed = true
      listeners.clear()
      loaded?.dispose()
    },
  })
}

export function sessionActions(deps: SessionActionsDeps): SessionActions {
  let pending: ActionPolicyTrace[] = []
  const record = (trace: ActionPolicyTrace): void => {
    pending.push(trace)
    if (pending.length > MAX_TURN_POLICY) pending.shift()
  }
  return {
    withPolicy: (...args) => lazyPolicy(loadActions().then(({ sessionPolicy }) => sessionPolicy(actionKit, deps, record, ...args))),
    createConfirmation: (options) => lazyCoordinator(deps, options),
    takePolicyTrace() {
      if (pending.length === 0) return undefined
      const taken = Object.freeze(pending)
      pending = []
      return taken
    },
  }
}

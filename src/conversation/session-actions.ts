import type { ActionPolicyTrace, ConfirmationChange, ConfirmationLedger } from '../contract/action-confirmation.js'
import type { ToolAuthorizer } from '../contract/tool.js'
import type { ActionConfirmationCoordinator, ActionConfirmationOptions } from './action-confirmation.js'
import type { ActionPolicy, CapabilityRequirements, ContextReader } from './capability-policy.js'
import { actionKit } from './action-kit.js'

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

export interface SessionActionsDeps {
  readonly sessionId: string
  /** The current state's `actions` when the definition declares any (else no state gate). */
  readonly stateActions: () => readonly string[] | undefined
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

export interface SessionActions {
  withPolicy: (requirements: CapabilityRequirements, getContext: ContextReader, options?: PolicyOptions) => ActionPolicy
  createConfirmation: (options: SessionConfirmationOptions) => ActionConfirmationCoordinator
  /** The decisions since the last call (for the turn's trace), or undefined when none. */
  takePolicyTrace: () => readonly ActionPolicyTrace[] | undefined
}

/** `object[name]`, called once `loading` resolves (the proxies' asynchronous methods). */
function deferred<T extends object>(loading: Promise<T>, name: keyof T): never {
  return (async (...args: unknown[]) => ((await loading)[name] as (...values: unknown[]) => unknown)(...args)) as never
}

/** A policy whose module loads on first use (see above). */
function lazyPolicy(load: () => Promise<ActionPolicy>): ActionPolicy {
  let loaded: ActionPolicy | undefined
  const loading = load().then((policy) => (loaded = policy))
  loading.catch(() => undefined)
  const compose = (authorizer?: ToolAuthorizer): ToolAuthorizer => {
    let composed: ToolAuthorizer | undefined
    return async (call, context) => (composed ??= (await loading).compose(authorizer))(call, context)
  }
  return { check: deferred(loading, 'check'), require: deferred(loading, 'require'), authorizeToolCall: compose(), compose, getTrace: () => loaded?.getTrace() ?? [] }
}

/** A coordinator whose module loads on first use (see above); its change listeners are its own. */
function lazyCoordinator(sessionId: string, load: (onChange: (change: ConfirmationChange) => void) => Promise<ActionConfirmationCoordinator>, ledger: ConfirmationLedger | undefined): ActionConfirmationCoordinator {
  const listeners = new Set<(change: ConfirmationChange) => void>()
  let loaded: ActionConfirmationCoordinator | undefined
  let disposed = false
  const loading = load((change) => {
    for (const listener of [...listeners]) {
      try {
        listener(change)
      } catch {
        // an observer's failure never changes a decision
      }
    }
  }).then((coordinator) => {
    if (disposed) coordinator.dispose()
    return (loaded = coordinator)
  })
  loading.catch(() => undefined)
  const later = (name: keyof ActionConfirmationCoordinator): never => deferred(loading, name)
  return {
    sessionId,
    propose: later('propose'),
    approve: later('approve'),
    reject: later('reject'),
    get: later('get'),
    list: later('list'),
    sweepExpired: later('sweepExpired'),
    reconcile: later('reconcile'),
    getByToolCall: (toolCallId) => (loaded ? loaded.getByToolCall(toolCallId) : ledger?.peekByToolCall?.(sessionId, toolCallId)),
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
  }
}

export function sessionActions(deps: SessionActionsDeps): SessionActions {
  let pending: ActionPolicyTrace[] = []
  return {
    withPolicy(requirements, getContext, options) {
      return lazyPolicy(() =>
        import('./session-actions-loaded.js').then(({ capabilityPolicyWith }) =>
          capabilityPolicyWith(actionKit)({
            sessionId: deps.sessionId,
            requirements,
            getContext,
            stateActions: deps.stateActions,
            turnId: deps.lastTurnId,
            now: deps.now,
            ...(options?.maxTrace === undefined ? {} : { maxTrace: options.maxTrace }),
            onTrace(trace) {
              pending.push(trace)
              if (pending.length > MAX_TURN_POLICY) pending.shift()
              options?.onTrace?.(trace)
            },
          }),
        ),
      )
    },
    createConfirmation(options) {
      return lazyCoordinator(deps.sessionId, (fanOut) =>
        import('./session-actions-loaded.js').then(({ actionConfirmationWith }) =>
          actionConfirmationWith(actionKit)({
            now: deps.now,
            ...options,
            sessionId: deps.sessionId,
            onChange(change) {
              options.onChange?.(change)
              fanOut(change)
            },
          }),
        ),
        options.ledger,
      )
    },
    takePolicyTrace() {
      if (pending.length === 0) return undefined
      const taken = Object.freeze(pending)
      pending = []
      return taken
    },
  }
}

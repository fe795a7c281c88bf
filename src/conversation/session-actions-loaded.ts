import type { ActionPolicyTrace, ConfirmationChange } from '../contract/action-confirmation.js'
import { actionConfirmationWith, type ActionConfirmationCoordinator } from './action-confirmation.js'
import type { ActionKit } from './action-kit.js'
import { capabilityPolicyWith, type ActionPolicy, type CapabilityRequirements, type ContextReader } from './capability-policy.js'
import type { PolicyOptions, SessionActionsDeps, SessionConfirmationOptions } from './session-actions-options.js'

// What session-actions.ts loads on first use: one module, so a bundler splits one lazy chunk; it
// shares no module with the session's chunk (the helpers come in through `kit`, action-kit.ts).
// The options are assembled here, not in the session's chunk, which every app loads.

/** `session.withPolicy`'s policy: bound to the session's id, state gate and turns; `record` keeps decisions for the next trace. */
export function sessionPolicy(
  kit: ActionKit,
  deps: SessionActionsDeps,
  record: (trace: ActionPolicyTrace) => void,
  requirements: CapabilityRequirements,
  getContext: ContextReader,
  options?: PolicyOptions,
): ActionPolicy {
  // the state gate applies only to a definition that lists actions somewhere (else every state's
  // list is empty); found on the policy's first check, not per session (the server opens one per request)
  let declaresActions: boolean | undefined
  return capabilityPolicyWith(kit)({
    sessionId: deps.sessionId,
    requirements,
    getContext,
    stateActions: () => {
      declaresActions ??= [...deps.states.values()].some((state) => state.actions.length > 0)
      return declaresActions ? (deps.states.get(deps.state())?.actions ?? []) : undefined
    },
    turnId: deps.lastTurnId,
    now: deps.now,
    ...(options?.maxTrace === undefined ? {} : { maxTrace: options.maxTrace }),
    onTrace(trace) {
      record(trace)
      options?.onTrace?.(trace)
    },
  })
}

/** `session.createConfirmation`'s coordinator for the session's id; every change also reaches the proxy's `listeners`. */
export function sessionConfirmation(kit: ActionKit, deps: SessionActionsDeps, options: SessionConfirmationOptions, listeners: ReadonlySet<(change: ConfirmationChange) => void>): ActionConfirmationCoordinator {
  return actionConfirmationWith(kit)({
    now: deps.now,
    ...options,
    sessionId: deps.sessionId,
    onChange(change) {
      options.onChange?.(change)
      for (const listener of [...listeners]) {
        try {
          listener(change)
        } catch {
          // an observer's failure never changes a decision
        }
      }
    },
  })
}

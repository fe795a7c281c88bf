import { actionConfirmationWith, type ActionConfirmationCoordinator, type ActionConfirmationOptions } from './action-confirmation.js'
import type { ActionPolicy as Policy } from './capability-policy.js'
import { capabilityPolicyWith, type CapabilityPolicyOptions } from './capability-policy.js'
import { actionKit } from './action-kit.js'
import { permissionConfirmationsWith, type PermissionConfirmationOptions, type PermissionConfirmations } from './permission-confirmations.js'

/**
 * The `chatrail/actions` entry point: action confirmation and capability policy (docs/actions.md),
 * with AgentsKit Chat's names. Kept out of the `chatrail` entry (≈ 14 kB minified) so an app that
 * only runs sessions does not ship it; `chatrail` exports the record and policy types, and a
 * session's `createConfirmation` / `withPolicy` build the same objects, loaded on first use. The
 * coordinator and the policy are bound here to chatrail's own helpers (action-kit.ts says why
 * they are handed in).
 */

/** A confirmation coordinator (action-confirmation.ts): propose, approve once, reject, expire, reconcile. See docs/actions.md. */
export function createActionConfirmation(options: ActionConfirmationOptions): ActionConfirmationCoordinator {
  return actionConfirmationWith(actionKit)(options)
}

/** A capability policy (capability-policy.ts). Throws `ChatrailConfigError` for invalid requirements or `getContext`. See docs/actions.md. */
export function createCapabilityPolicy(options: CapabilityPolicyOptions): Policy {
  return capabilityPolicyWith(actionKit)(options)
}

/**
 * AgentsKit Chat's `withActionPolicy(chat, policy)`: the chat config with `authorizeToolCall`
 * replaced by the policy in front of the one it had (the policy decides first and again after it).
 */
export function withActionPolicy<Config extends { authorizeToolCall?: ConfirmationChatAuthorizer }>(chat: Config, policy: Policy): Config & { authorizeToolCall: ConfirmationChatAuthorizer } {
  return { ...chat, authorizeToolCall: policy.compose(chat.authorizeToolCall) }
}

type ConfirmationChatAuthorizer = Policy['authorizeToolCall']

/**
 * A coding agent's permission requests as confirmation records (permission-confirmations.ts): the
 * record's executor sends the allow, a rejection or expiry the deny. See docs/actions.md.
 */
export function permissionConfirmations(options: PermissionConfirmationOptions): PermissionConfirmations {
  return permissionConfirmationsWith(actionKit)(options)
}

export type { ActionConfirmationCoordinator, ActionConfirmationOptions, ConfirmationCaller } from './action-confirmation.js'
export type { AgentPermissionRequest, AgentPermissionVerdict, PermissionConfirmationOptions, PermissionConfirmations } from './permission-confirmations.js'
export { chatExecutor } from './action-executor.js'
export { choiceActionRoute, chosenAction } from './choice-action-route.js'
export type { ApprovalRequestInput, ApprovalRequestRenderer, ChoiceActionRouteOptions, ChosenAction } from './choice-action-route.js'
export type { ActionExecutionContext, ActionExecutor, ConfirmationChat } from './action-executor.js'
export type { ActionPolicy, CapabilityPolicyOptions, CapabilityRequirements, ContextReader } from './capability-policy.js'
export { createConfirmationRecord, freezeActionInput, reduceConfirmation, MAX_INPUT_JSON_CHARS, MAX_REASON_CHARS } from './confirmation-record.js'
export type { NewConfirmation } from './confirmation-record.js'
export { memoryConfirmationLedger } from './confirmation-ledger.js'
export { createConfirmationToken } from './confirmation-token.js'
export type { PolicyOptions, SessionConfirmationOptions } from './session-actions.js'
export type {
  ActionConfirmation,
  ActionConfirmationStatus,
  ActionPolicyDecision,
  ActionPolicyPhase,
  ActionPolicyReason,
  ActionPolicyTrace,
  ConfirmableAction,
  ConfirmationChange,
  ConfirmationClaim,
  ConfirmationEvent,
  ConfirmationLedger,
  ConfirmationOutcome,
  TrustedActionContext,
} from '../contract/action-confirmation.js'

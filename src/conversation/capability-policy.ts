import type {
  ActionPolicyDecision,
  ActionPolicyPhase,
  ActionPolicyReason,
  ActionPolicyTrace,
  TrustedActionContext,
} from '../contract/action-confirmation.js'
import type { MaybePromise } from '../contract/message.js'
import type { ToolAuthorizer } from '../contract/tool.js'
import type { ActionKit } from './action-kit.js'

/**
 * A capability policy: which trusted capabilities each action needs, checked against a context
 * the app reads from its own session store (never from the tool call's arguments) at every check,
 * so a capability revoked between a proposal and its execution blocks the execution. AgentsKit
 * Chat's `createCapabilityPolicy`, with the session id read from the running session (not fixed
 * on a shared definition), an async `getContext`, the current state's `actions` intersected, and a
 * bounded trace.
 */

/** action name → the capabilities it needs (`[]`: any caller of this session may use it). */
export type CapabilityRequirements = Readonly<Record<string, readonly string[]>>

export type ContextReader = () => MaybePromise<TrustedActionContext | null | undefined>

export interface CapabilityPolicyOptions {
  /** The session the policy guards: a string, or read at each check (`session.withPolicy` passes the running session's). */
  readonly sessionId: string | (() => string)
  readonly requirements: CapabilityRequirements
  readonly getContext: ContextReader
  /** The actions the current state offers; an action outside it is `action-unregistered`. Undefined: no state gate. */
  readonly stateActions?: () => readonly string[] | undefined
  /** Every decision, as the trace keeps it; failures are ignored. */
  readonly onTrace?: (trace: ActionPolicyTrace) => void
  /** The turn to attach a decision to (the session's running or last turn). */
  readonly turnId?: () => string | undefined
  /** Milliseconds since the epoch, for trace times. Default `Date.now`. */
  readonly now?: () => number
  /** How many decisions `getTrace()` keeps (oldest dropped first). Default 100. */
  readonly maxTrace?: number
}

export interface ActionPolicy {
  /** Decides `action` now (reads the context again); records the decision. Never rejects. */
  check: (action: string, phase: ActionPolicyPhase, toolCallId?: string) => Promise<ActionPolicyDecision>
  /**
   * For a deterministic route: `check(action, 'route')`, rejecting with `ChatrailError`
   * `ACTION_REFUSED` when refused, so a route that awaits it fails and changes nothing (no
   * transition, no context change) when the caller may not take the action.
   */
  require: (action: string) => Promise<void>
  /** This policy as a `ChatConfig.authorizeToolCall`. */
  readonly authorizeToolCall: ToolAuthorizer
  /**
   * This policy in front of another authorizer: the composed one is asked only when this policy
   * allows, and this policy decides again after it (a revocation during an async composed check
   * blocks the call).
   */
  compose: (authorizer?: ToolAuthorizer) => ToolAuthorizer
  /** The latest decisions, oldest first (bounded by `maxTrace`); never an input or a context. */
  getTrace: () => readonly ActionPolicyTrace[]
}

const isContext = (value: unknown): value is TrustedActionContext =>
  typeof value === 'object' && value !== null &&
  typeof (value as TrustedActionContext).sessionId === 'string' &&
  Array.isArray((value as TrustedActionContext).capabilities) &&
  (value as TrustedActionContext).capabilities.every((capability) => typeof capability === 'string')

// Whitespace in a capability is a typo ("billing write") or a sentence: it could never be granted as meant.
const isCapabilityName = (capability: unknown): capability is string => typeof capability === 'string' && /^\S{1,128}$/.test(capability)

function checkRequirements(kit: ActionKit, requirements: unknown): CapabilityRequirements {
  const issue = (path: (string | number)[], message: string): Error =>
    kit.configError('invalid_policy', ['requirements', ...path], message, 'Pass { actionName: ["capability", …] } (an empty list: no capability needed).')
  if (typeof requirements !== 'object' || requirements === null || Array.isArray(requirements)) throw issue([], 'The policy requirements must be an object of action name → capabilities.')
  const copy: Record<string, readonly string[]> = Object.create(null) as Record<string, readonly string[]>
  for (const [action, capabilities] of Object.entries(requirements)) {
    if (!Array.isArray(capabilities) || !capabilities.every(isCapabilityName)) {
      throw issue([action], `The capabilities for action "${action}" must be a list of names of 1–128 characters without whitespace.`)
    }
    copy[action] = Object.freeze([...(capabilities as string[])])
  }
  return Object.freeze(copy)
}

const decision = (reason: ActionPolicyReason): ActionPolicyDecision => ({ allowed: reason === 'allowed', reason })

/** `createCapabilityPolicy` over `kit` (see action-kit.ts); the public one is in actions.ts. */
export const capabilityPolicyWith = (kit: ActionKit) => (options: CapabilityPolicyOptions): ActionPolicy => {
  const requirements = checkRequirements(kit, options.requirements)
  if (typeof options.getContext !== 'function') {
    throw kit.configError('invalid_policy', ['getContext'], 'getContext must be a function returning the trusted context { sessionId, capabilities }.', 'Read it from your own session store, never from the tool call.')
  }
  // an empty id would be matched by a context that names no session
  if (typeof options.sessionId !== 'function' && !kit.isIdentifier(options.sessionId)) {
    throw kit.configError('invalid_policy', ['sessionId'], `The policy's session id ${JSON.stringify(options.sessionId)} is not an identifier.`, 'Pass the session\'s id (1–128 characters from A–Z, a–z, 0–9 and . _ : -), or use session.withPolicy, which passes the running session\'s.')
  }
  const sessionIdOf = typeof options.sessionId === 'function' ? options.sessionId : ((id: string) => () => id)(options.sessionId)
  const now = options.now ?? Date.now
  const maxTrace = options.maxTrace ?? 100
  const trace: ActionPolicyTrace[] = []
  let sequence = 0

  const record = (action: string, phase: ActionPolicyPhase, reason: ActionPolicyReason, toolCallId: string | undefined): void => {
    const turnId = options.turnId?.()
    const entry: ActionPolicyTrace = Object.freeze({
      id: `policy-${++sequence}`,
      phase,
      action,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      decision: reason === 'allowed' ? 'allow' : 'deny',
      reason,
      requiredCapabilities: requirements[action] ?? [],
      at: kit.isoTime(now()),
      ...(turnId === undefined ? {} : { turnId }),
    })
    trace.push(entry)
    if (trace.length > maxTrace) trace.splice(0, trace.length - maxTrace)
    try {
      options.onTrace?.(entry)
    } catch {
      // an observer's failure never changes a decision
    }
  }

  /** The decision without recording it. */
  const decide = async (action: string): Promise<ActionPolicyReason> => {
    const required = requirements[action]
    if (required === undefined) return 'action-unregistered'
    const offered = options.stateActions?.()
    if (offered !== undefined && !offered.includes(action)) return 'action-unregistered'
    let context: unknown
    try {
      context = await options.getContext()
    } catch {
      return 'policy-failure'
    }
    if (context === undefined || context === null) return 'missing-context'
    if (!isContext(context)) return 'policy-failure'
    if (context.sessionId !== sessionIdOf()) return 'session-mismatch'
    return required.every((capability) => context.capabilities.includes(capability)) ? 'allowed' : 'missing-capability'
  }

  const check = async (action: string, phase: ActionPolicyPhase, toolCallId?: string): Promise<ActionPolicyDecision> => {
    const reason = await decide(action)
    record(action, phase, reason, toolCallId)
    return decision(reason)
  }

  const compose = (authorizer?: ToolAuthorizer): ToolAuthorizer => async (call, context) => {
    let reason = await decide(call.name)
    if (reason === 'allowed' && authorizer) {
      try {
        const composed = await authorizer(call, context)
        if (composed?.allowed !== true) reason = 'composed-policy-denied'
      } catch {
        reason = 'policy-failure'
      }
      // the composed check may have taken a while: a capability revoked meanwhile still blocks
      if (reason === 'allowed') reason = await decide(call.name)
    }
    record(call.name, context.phase, reason, call.id)
    return reason === 'allowed' ? { allowed: true } : { allowed: false, reason: `Action "${call.name}" refused by policy: ${reason}` }
  }

  const require = async (action: string): Promise<void> => {
    const { allowed, reason } = await check(action, 'route')
    if (!allowed) throw kit.error({ code: 'ACTION_REFUSED', message: `Action "${action}" refused by policy: ${reason}.`, hint: 'The trusted context lacks what the action requires; see TurnTrace.policy.' })
  }

  return { check, require, authorizeToolCall: compose(), compose, getTrace: () => [...trace] }
}

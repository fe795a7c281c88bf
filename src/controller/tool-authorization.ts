import type { ToolAuthorizationDecision, ToolAuthorizationPhase, ToolDefinition } from '../contract/tool.js'
import type { ToolCall } from '../contract/message.js'
import type { ControllerContext } from './controller-context.js'
import { ErrorCodes, ToolError } from './errors.js'

/**
 * A settled authorization check. An allowing one stays good only while what it rested on — the
 * configured `authorizeToolCall` and the registered tool's `execute` — is unchanged: `current()`
 * says whether it still is. Read it through `refusal`, right before acting.
 */
export type Authorization =
  | { allowed: true; current: () => boolean }
  | { allowed: false; error: ToolError }

/** The refusal every caller sees when the policy gave no reason, threw, or changed under the check. */
const notAuthorized = (call: ToolCall, hint?: string): ToolError =>
  new ToolError({ code: ErrorCodes.AK_TOOL_FORBIDDEN, message: `Tool "${call.name}" is not authorized`, hint })

/**
 * Asks `config.authorizeToolCall` about a call; no authorizer allows everything. Never rejects.
 * It fails closed: a denial, a malformed decision or a throwing authorizer refuses the call. What
 * an authorizer threw never reaches the refusal (which goes to the app, the stored call and the
 * model); observers alone get it, as the `cause` of an `error` event.
 */
export async function authorizeToolCall(
  ctx: ControllerContext,
  call: ToolCall,
  phase: ToolAuthorizationPhase,
  tool: ToolDefinition | undefined,
): Promise<Authorization> {
  const authorizer = ctx.config().authorizeToolCall
  const execute = ctx.tools.find(call.name)?.execute
  const current = (): boolean => ctx.config().authorizeToolCall === authorizer && ctx.tools.find(call.name)?.execute === execute
  if (!authorizer) return { allowed: true, current }
  let decision: ToolAuthorizationDecision | undefined
  try {
    decision = await authorizer(call, { messages: ctx.messages(), tool, phase })
  } catch (thrown) {
    ctx.emit({
      type: 'error',
      error: new ToolError({
        code: ErrorCodes.AK_TOOL_FORBIDDEN,
        message: `authorizeToolCall threw while checking tool "${call.name}" (${phase}); the call is refused`,
        cause: thrown,
      }),
    })
    return { allowed: false, error: notAuthorized(call) }
  }
  if (decision?.allowed === true) return { allowed: true, current }
  const reason = typeof decision?.reason === 'string' ? decision.reason : undefined
  return { allowed: false, error: reason === undefined ? notAuthorized(call) : new ToolError({ code: ErrorCodes.AK_TOOL_FORBIDDEN, message: reason }) }
}

/**
 * The error refusing `call`, or `undefined` when `authorization` allows it and nothing it rested
 * on changed since the check began. Callers use it after their last await, immediately before
 * they commit or execute, so a policy added or a tool replaced by `updateConfig` in between
 * (during the check, `onToolCall` or `init`) refuses the call — even when the new policy would
 * allow it (chatrail fails closed; see docs/contract.md).
 */
export function refusal(authorization: Authorization, call: ToolCall): ToolError | undefined {
  if (!authorization.allowed) return authorization.error
  if (authorization.current()) return undefined
  return notAuthorized(
    call,
    `The tool configuration changed during authorization: updateConfig replaced authorizeToolCall or the "${call.name}" tool while the call was being checked. chatrail refuses rather than guess; propose or run it again.`,
  )
}

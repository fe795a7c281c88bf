import type { ToolAuthorizationDecision, ToolAuthorizationPhase, ToolDefinition } from '../contract/tool.js'
import type { ToolCall } from '../contract/message.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, ToolError } from './errors.js'

/**
 * Asks `config.authorizeToolCall` about a call. No authorizer allows everything. It fails closed:
 * a throwing authorizer, or an authorizer or tool `execute` swapped by `updateConfig` while the
 * check ran, is a denial. Never rejects.
 */
export async function authorizeToolCall(
  ctx: ControllerContext,
  call: ToolCall,
  phase: ToolAuthorizationPhase,
  tool: ToolDefinition | undefined,
): Promise<ToolAuthorizationDecision> {
  const authorizer = ctx.config().authorizeToolCall
  if (!authorizer) return { allowed: true }
  const execute = tool?.execute
  let decision: ToolAuthorizationDecision
  try {
    decision = await authorizer(call, { messages: ctx.messages(), tool, phase })
  } catch (error) {
    return { allowed: false, reason: `Authorization check failed: ${describeThrown(error)}` }
  }
  if (ctx.config().authorizeToolCall !== authorizer || ctx.tools.find(call.name)?.execute !== execute) {
    return { allowed: false, reason: 'The tool configuration changed during authorization' }
  }
  return decision && decision.allowed === true ? decision : { allowed: false, reason: decision?.reason }
}

/** The `ToolError` for a call the authorizer denied: its reason, or one naming the tool. */
export const deniedToolError = (call: ToolCall, reason: string | undefined): ToolError =>
  new ToolError({ code: ErrorCodes.AK_TOOL_FORBIDDEN, message: reason ?? `Tool "${call.name}" is not authorized` })

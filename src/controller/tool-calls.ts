import type { ToolCall } from '../contract/message.js'
import type { StreamToolCallPayload } from '../contract/stream.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, ToolError } from './errors.js'
import { safeParseArgs } from './safe-parse-args.js'
import { authorizeToolCall, refusal } from './tool-authorization.js'
import { executeTool } from './tool-execution.js'
import { SUPERSEDED } from './turn-tracker.js'
import type { Turn } from './turn-tracker.js'

/** Patches one tool call of one message through the store (`tool-call-patched`). */
export const toolCallPatcher =
  (ctx: ControllerContext, messageId: string, callId: string) =>
  (patch: Partial<Omit<ToolCall, 'id'>>): void => {
    ctx.store.dispatch({ type: 'tool-call-patched', messageId, callId, patch })
  }

/**
 * Handles one `tool_call` chunk of a turn (agentskit-contract §2.6): propose-phase authorization
 * (a denial throws a `ToolError`, which ends the turn), append the call, `onToolCall`, then either
 * wait for confirmation or execute. Everything after an await is dropped if the turn was stopped.
 *
 * chatrail addition: a call that arrives with a `result` for a tool chatrail cannot execute was
 * run by the provider itself (an agent CLI); it is recorded `complete` and needs no follow-up.
 */
export async function handleToolCallChunk(
  ctx: ControllerContext,
  turn: Turn,
  messageId: string,
  payload: StreamToolCallPayload,
): Promise<void> {
  const tool = ctx.tools.find(payload.name)
  const call: ToolCall = {
    id: payload.id,
    name: payload.name,
    args: safeParseArgs(payload.args),
    status: tool?.requiresConfirmation ? 'requires_confirmation' : 'pending',
  }
  if (payload.result !== undefined) call.result = payload.result

  const decision = await turn.race(authorizeToolCall(ctx, call, 'propose', tool))
  if (decision === SUPERSEDED || !turn.isCurrent()) return
  const refused = refusal(decision, call)
  if (refused) throw refused

  ctx.store.dispatch({ type: 'tool-call-added', messageId, call })
  const hook = ctx.config().onToolCall
  if (hook) {
    try {
      const hooked = await turn.race(hook(call, { messages: ctx.messages(), tool }))
      if (hooked === SUPERSEDED) return
    } catch (thrown) {
      throw new ToolError({
        code: ErrorCodes.AK_TOOL_EXEC_FAILED,
        message: `onToolCall failed for tool "${call.name}": ${describeThrown(thrown)}`,
        cause: thrown,
      })
    }
    if (!turn.isCurrent()) return
  }

  const patch = toolCallPatcher(ctx, messageId, call.id)
  if (call.status === 'requires_confirmation') {
    if (payload.result !== undefined) patch({ status: 'complete' })
    return
  }
  if (payload.result !== undefined && !tool?.execute) {
    ctx.providerResolved.add(call.id)
    patch({ status: 'complete' })
    return
  }
  if (tool?.execute) patch({ status: 'running' })
  const outcome = await turn.race(
    executeTool(ctx, call, (partial) => {
      if (turn.isCurrent()) patch({ result: partial })
    }),
  )
  if (outcome === SUPERSEDED || !turn.isCurrent()) return
  patch(outcome)
}

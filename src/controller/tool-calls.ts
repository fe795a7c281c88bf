import type { ToolCall } from '../contract/message.js'
import type { StreamToolCallPayload } from '../contract/stream.js'
import { findMessage } from './history-reads.js'
import type { ControllerContext } from './controller-context.js'
import { describeThrown, ErrorCodes, ToolError } from './errors.js'
import { safeParseArgs } from './safe-parse-args.js'
import { authorizeToolCall, refusal } from './tool-authorization.js'
import { executeTool } from './tool-execution.js'
import { SUPERSEDED } from './superseded.js'
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
 * chatrail additions for tools the provider runs itself (an agent CLI; docs/agents.md § Tools the
 * agent runs), none of which needs a follow-up: a call that arrives with a `result` for a tool
 * chatrail cannot execute is recorded `complete` (or the `metadata.toolStatus` it states); one
 * marked `metadata.providerExecuted` without a result is recorded `running` and never executed;
 * a call id this message already has updates that call instead of adding it twice.
 */
export async function handleToolCallChunk(
  ctx: ControllerContext,
  turn: Turn,
  messageId: string,
  payload: StreamToolCallPayload,
  metadata?: Record<string, unknown>,
): Promise<void> {
  const tool = ctx.tools.find(payload.name)
  const existing = findCall(ctx, messageId, payload.id)
  if (existing) {
    if (payload.result !== undefined && ctx.providerResolved.has(existing.id)) {
      toolCallPatcher(ctx, messageId, existing.id)({ result: payload.result, status: statedStatus(metadata) ?? 'complete' })
    }
    return
  }
  const providerRunning = payload.result === undefined && metadata?.providerExecuted === true && !tool?.execute
  const call: ToolCall = {
    id: payload.id,
    name: payload.name,
    args: safeParseArgs(payload.args),
    status: tool?.requiresConfirmation ? 'requires_confirmation' : providerRunning ? 'running' : 'pending',
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
  if (providerRunning) {
    ctx.providerResolved.add(call.id)
    return
  }
  if (payload.result !== undefined && !tool?.execute) {
    ctx.providerResolved.add(call.id)
    patch({ status: statedStatus(metadata) ?? 'complete' })
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

/** The call `callId` of message `messageId`, if it has one. */
function findCall(ctx: ControllerContext, messageId: string, callId: string): ToolCall | undefined {
  return findMessage(ctx.store.snapshot(), messageId)?.toolCalls?.find((call) => call.id === callId)
}

/** The status a provider-run tool's chunk states in `metadata.toolStatus`, when it is one of these. */
function statedStatus(metadata: Record<string, unknown> | undefined): 'running' | 'complete' | 'error' | undefined {
  const stated = metadata?.toolStatus
  return stated === 'running' || stated === 'complete' || stated === 'error' ? stated : undefined
}

/**
 * chatrail addition: a `tool_result` chunk naming a provider-run call of this message settles it
 * — its `result` (the payload's, else the content) and the status the chunk states (`complete`
 * when it states none; `running` keeps it open, e.g. a background command's launch). Results of
 * calls chatrail executes itself, and of unknown ids, change nothing (upstream links a result to
 * no call).
 */
export function settleProviderToolCall(
  ctx: ControllerContext,
  messageId: string,
  payload: StreamToolCallPayload,
  content: string | undefined,
  metadata: Record<string, unknown> | undefined,
): void {
  const call = findCall(ctx, messageId, payload.id)
  if (!call || !ctx.providerResolved.has(call.id)) return
  const result = payload.result ?? content ?? ''
  const status = statedStatus(metadata) ?? (call.status === 'running' ? 'complete' : call.status)
  if (call.result === result && call.status === status) return
  toolCallPatcher(ctx, messageId, call.id)({ result, status })
}

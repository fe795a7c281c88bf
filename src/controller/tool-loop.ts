import type { Message, ToolCall } from '../contract/message.js'
import { findMessage } from './history-reads.js'
import { takeDoneRecord, type ControllerContext } from './controller-context.js'
import { invokeCallback } from './event-emitter.js'
import { runModelTurn } from './turn-runner.js'
import type { Turn } from './turn-tracker.js'

const settled = (call: ToolCall): boolean => call.status === 'complete' || call.status === 'error'

/**
 * True when `message` ends in tool calls that are all settled and at least one of them awaits a
 * reply from the model (a provider-run call does not).
 */
export function needsFollowUp(ctx: ControllerContext, message: Message): boolean {
  const calls = message.toolCalls ?? []
  return calls.length > 0 && calls.every(settled) && calls.some((call) => !ctx.providerResolved.has(call.id))
}

/**
 * The tool loop (agentskit-contract §2.6): while the latest assistant's tool calls are all settled
 * and need a reply, append one `tool` message per call and a new streaming assistant, and call the
 * model again — at most `maxToolIterations` (default 5; `<= 0` or NaN: none) follow-ups per run.
 * Ends by finalizing the last assistant, unless the turn was stopped or failed.
 */
export async function runToolLoop(ctx: ControllerContext, turn: Turn, assistantId: string): Promise<void> {
  let current = assistantId
  let followUps = 0
  for (;;) {
    if (!turn.isCurrent()) return
    const message = findMessage(ctx.store.snapshot(), current)
    const limit = ctx.config().maxToolIterations ?? 5
    if (!message || !needsFollowUp(ctx, message) || !(followUps < limit)) {
      // The turn's final assistant becomes `complete`, the chat `idle`, and `onMessage` hears of it.
      ctx.store.dispatch({ type: 'turn-settled', assistantId: current, metadata: takeDoneRecord(ctx, current) })
      const final = findMessage(ctx.store.snapshot(), current)
      if (final) invokeCallback(ctx.config().onMessage, final)
      return
    }
    followUps += 1
    const toolMessages = (message.toolCalls ?? []).map((call) =>
      ctx.kit.buildMessage({ role: 'tool', content: call.result ?? call.error ?? '', toolCallId: call.id }, ctx),
    )
    const next = ctx.kit.buildMessage({ role: 'assistant', content: '', status: 'streaming' }, ctx)
    ctx.store.dispatch({ type: 'tools-continued', assistantId: current, appended: [...toolMessages, next], metadata: takeDoneRecord(ctx, current) })
    if (!(await runModelTurn(ctx, turn, next.id, ''))) return
    current = next.id
  }
}

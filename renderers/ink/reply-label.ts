import type { Message } from '../../src/contract/message.js'
import type { TurnTrace } from '../../src/conversation/trace.js'
import type { DescribeReply } from './printed-log.js'

/**
 * How an assistant reply was decided, from the session's traces: the trace of the user message
 * the reply answers (the latest one, so a retry shows `replayed`). Pure.
 */
export function replyLabel(traces: readonly TurnTrace[]): DescribeReply {
  return (message: Message, messages: readonly Message[]) => {
    const trace = replyTrace(traces, message.id, messages)
    if (trace === undefined) return undefined
    return [
      trace.kind,
      trace.routeId,
      trace.replayed ? 'replayed' : undefined,
      // A failed reply is marked by its own error status; only a stop needs saying.
      trace.outcome === 'aborted' ? 'aborted' : undefined,
    ].filter((part) => part !== undefined).join(' · ')
  }
}

/** The trace of the turn that produced the reply with this id: the latest for the user message before it. Pure. */
export function replyTrace(traces: readonly TurnTrace[], replyId: string, messages: readonly Message[]): TurnTrace | undefined {
  const index = messages.findIndex((message) => message.id === replyId)
  for (let i = index - 1; i >= 0; i -= 1) {
    const candidate = messages[i]
    if (candidate?.role === 'user') return traces.findLast((t) => t.messageId === candidate.id)
  }
  return undefined
}

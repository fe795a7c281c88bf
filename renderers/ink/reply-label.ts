import type { Message } from '../../src/contract/message.js'
import type { TurnTrace } from '../../src/conversation/trace.js'
import type { DescribeReply } from './printed-log.js'

/**
 * How an assistant reply was decided, from the session's traces: the trace of the user message
 * the reply answers (the latest one, so a retry shows `replayed`). Pure.
 */
export function replyLabel(traces: readonly TurnTrace[]): DescribeReply {
  return (message: Message, messages: readonly Message[]) => {
    const index = messages.indexOf(message)
    let userId: string | undefined
    for (let i = index - 1; i >= 0; i -= 1) {
      const candidate = messages[i]
      if (candidate?.role === 'user') {
        userId = candidate.id
        break
      }
    }
    if (userId === undefined) return undefined
    const trace = traces.findLast((t) => t.messageId === userId)
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

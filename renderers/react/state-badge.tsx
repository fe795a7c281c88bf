import type { ReactNode } from 'react'
import type { ChatState } from '../../src/contract/chat.js'
import type { Dialog } from '../../src/contract/dialog.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { agentFailedIn } from '../../src/view/agent-failure.js'
import { humanizeEvent } from '../../src/view/event-routes.js'
import { entryLabels, useLabels } from './labels.js'
import type { ChatLabels } from './labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface StateBadgeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Display names for machine states; default: the state name, humanized (`order_lookup` → "Order lookup"). */
  labels?: Record<string, string>
}

/**
 * Pure: what the user needs to know now, in plain words. A pending dialog comes first (the turn is
 * streaming while it waits), then the stream, then the conversation's end. The agent's own run
 * state never speaks here: after a Stop it may still say "working" for a moment. `agentFailed`:
 * the last turn's agent failed and the fallback answered (`agentFailedIn`). `words`: the labels
 * (default English).
 */
export function statusWordsOf(status: ChatState['status'], pendingDialog: Dialog | undefined, final: boolean, agentFailed = false, words: StatusWords = entryLabels): string {
  if (pendingDialog !== undefined) {
    if (!pendingDialog.answerable) return words.waitingElsewhere
    return pendingDialog.kind === 'plan' ? words.waitingReview : words.waitingAnswer
  }
  if (status === 'streaming') return words.working
  // The fallback answered for a failed agent: not "Ready" while the banner says it failed.
  if (status === 'error' || agentFailed) return words.failed
  return final ? words.finished : words.ready
}

type StatusWords = Pick<ChatLabels, 'waitingElsewhere' | 'waitingReview' | 'waitingAnswer' | 'working' | 'failed' | 'finished' | 'ready'>

/**
 * The live status line (`role="status"`): the conversation's step (its label) and what is going
 * on in plain words. The machine state, the last turn's kind (deterministic, agentic, … and
 * replayed) and the agent's run state are data attributes for styling and tests, not words.
 */
export function StateBadge({ chat, labels }: StateBadgeProps): ReactNode {
  const { snapshot, traces, status, pendingDialog } = useChatFrom(chat, 'StateBadge')
  const last = traces.at(-1)
  const words = useLabels(entryLabels)
  return (
    <p
      role="status"
      data-chatrail-state-badge=""
      data-chatrail-state={snapshot.state}
      data-chatrail-status={status}
      data-chatrail-final={snapshot.final ? '' : undefined}
      data-chatrail-turn-kind={last?.kind}
      data-chatrail-replayed={last?.replayed ? '' : undefined}
      data-chatrail-agent={snapshot.agent?.agent}
      data-chatrail-agent-state={snapshot.agent?.state}
    >
      <strong data-chatrail-state-name="">{labels?.[snapshot.state] ?? humanizeEvent(snapshot.state)}</strong>
      {' '}
      <span data-chatrail-status-words="">{statusWordsOf(status, pendingDialog, snapshot.final, agentFailedIn(last), words)}</span>
    </p>
  )
}

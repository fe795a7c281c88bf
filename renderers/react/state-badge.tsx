import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { agentFailedIn } from '../../src/view/agent-failure.js'
import { humanizeEvent } from '../../src/view/event-routes.js'
import { entryLabels, useLabels } from './labels.js'
import { statusWordsOf } from '../../src/view/status-words.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface StateBadgeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Display names for machine states; default: the state name, humanized (`order_lookup` → "Order lookup"). */
  labels?: Record<string, string>
}

export { statusWordsOf }

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

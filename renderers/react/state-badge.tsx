import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface StateBadgeProps {
  chat?: UseChatSessionReturn<JsonObject>
  /** Display names for machine states; default: the state name itself. */
  labels?: Record<string, string>
}

/**
 * The live status line (`role="status"`): the conversation state, the kind of the last turn
 * (deterministic, agentic, …, with "replayed"), the stream status, and the agent's run state when
 * the adapter is a live agent.
 */
export function StateBadge({ chat, labels }: StateBadgeProps): ReactNode {
  const { snapshot, traces, status } = useChatFrom(chat, 'StateBadge')
  const last = traces.at(-1)
  const agent = snapshot.agent
  return (
    <p
      role="status"
      data-chatrail-state-badge=""
      data-chatrail-state={snapshot.state}
      data-chatrail-status={status}
      data-chatrail-final={snapshot.final ? '' : undefined}
    >
      State <strong data-chatrail-state-name="">{labels?.[snapshot.state] ?? snapshot.state}</strong>
      {last && <span data-chatrail-turn-kind={last.kind} data-chatrail-replayed={last.replayed ? '' : undefined}> · {last.kind}{last.replayed && ' (replayed)'}</span>}
      {status === 'streaming' && ' · replying…'}
      {agent && <span data-chatrail-agent={agent.agent} data-chatrail-agent-state={agent.state}> · {agent.agent}: {agent.state}{agent.detail && ` (${agent.detail})`}</span>}
    </p>
  )
}

import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { ActionApprovalCard } from './action-approval-card.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import type { ApprovalSource } from '../../src/view/approval-source.js'
import { createWaitingApprovals } from '../../src/view/waiting-approvals.js'
import { useChatFrom } from './chat-context.js'
import { useLabels } from './labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The conversation's confirmation records that no message shows: proposals your app made outside a
 * route (a tool, a job, `createStoredConfirmation(...).propose` on the server), each as an
 * `<ActionApprovalCard>`. A record an `approval-request` in the history is bound to is left to
 * that component. Read from the source when mounted and after every turn, and kept current by its
 * changes (chatrail/view's `createWaitingApprovals`); a record decided here stays with its outcome, one
 * being decided elsewhere says so. Renders nothing when nothing waits.
 */

export interface PendingApprovalsProps {
  /** Where records are read and decided; it needs `list` (`coordinatorApprovals`, `serverApprovals`). */
  source: ApprovalSource
  /** The chat whose history's approval requests are left out (default: the surrounding `<ChatSession>`'s). */
  chat?: UseChatSessionReturn<JsonObject>
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number
  /** The region's accessible name. Default "Actions waiting for approval". */
  label?: string
}

export function PendingApprovals({ source, chat, now, label }: PendingApprovalsProps): ReactNode {
  const words = useLabels(approvalLabels)
  const resolved = useChatFrom(chat, 'PendingApprovals', true)
  // the records and what was decided here are chatrail/view's store (`createWaitingApprovals`); this only draws them
  const approvals = useMemo(() => createWaitingApprovals(source), [source])
  useSyncExternalStore(approvals.subscribe, approvals.getState, approvals.getState)
  const messages = resolved?.messages ?? []
  // read again once a turn settles (a route or a tool may have proposed something), and mid-turn
  // when a live agent starts waiting for a permission (its request is a record: chatrail serve --agent)
  const agent = resolved?.snapshot.agent
  const settled = resolved?.status === 'streaming' ? (agent?.status === 'waiting_for_approval' ? `waiting:${agent.detail ?? ''}` : undefined) : messages.length
  useEffect(() => {
    if (settled !== undefined) void approvals.refresh().catch(() => undefined)
  }, [approvals, settled])
  const visible = approvals.shownWith(messages)
  if (visible.length === 0) return null
  return (
    <section aria-label={label ?? words.pendingApprovals} data-chatrail-pending-approvals="">
      {visible.map((record) => (
        <ActionApprovalCard
          key={record.token}
          record={record}
          onApprove={approvals.approve}
          onReject={approvals.reject}
          {...(now === undefined ? {} : { now })}
        />
      ))}
    </section>
  )
}

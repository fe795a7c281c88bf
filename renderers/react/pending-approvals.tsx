import { useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import { isComponentPart } from '../../src/contract/component-chunk.js'
import type { Message } from '../../src/contract/message.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { ActionApprovalCard, type ApprovalRecord } from './action-approval-card.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import type { ApprovalSource } from './approval-source.js'
import { useChatFrom } from './chat-context.js'
import { useLabels } from './labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * The conversation's confirmation records that no message shows: proposals your app made outside a
 * route (a tool, a job, `createStoredConfirmation(...).propose` on the server), each as an
 * `<ActionApprovalCard>`. A record an `approval-request` in the history is bound to is left to
 * that component. Read from the source when mounted and after every turn; a record decided here
 * stays with its outcome until the next read. Renders nothing when nothing waits.
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

/** The tokens the history's approval requests are bound to. */
function tokensShownIn(messages: readonly Message[]): ReadonlySet<string> {
  const tokens = new Set<string>()
  for (const message of messages) {
    for (const part of message.parts ?? []) {
      const token = isComponentPart(part) && part.componentKey === 'approval-request' ? (part.props as { token?: unknown } | null)?.token : undefined
      if (typeof token === 'string') tokens.add(token)
    }
  }
  return tokens
}

export function PendingApprovals({ source, chat, now, label }: PendingApprovalsProps): ReactNode {
  const words = useLabels(approvalLabels)
  const resolved = useChatFrom(chat, 'PendingApprovals', true)
  const [records, setRecords] = useState<readonly ApprovalRecord[]>([])
  const [decided, setDecided] = useState<ReadonlyMap<string, ApprovalRecord>>(new Map())
  const messages = resolved?.messages ?? []
  // read again once a turn settles (a route or a tool may have proposed something)
  const settled = resolved?.status === 'streaming' ? undefined : messages.length
  useEffect(() => {
    if (settled === undefined || source.list === undefined) return
    let live = true
    source.list().then((found) => { if (live) setRecords(found) }, () => undefined)
    return () => { live = false }
  }, [source, settled])
  const shown = tokensShownIn(messages)
  const visible = records
    .map((record) => decided.get(record.token) ?? record)
    .filter((record) => !shown.has(record.token) && (record.status === 'pending' || decided.has(record.token)))
  if (visible.length === 0) return null
  const keep = (record: ApprovalRecord): ApprovalRecord => {
    setDecided((before) => new Map(before).set(record.token, record))
    return record
  }
  return (
    <section aria-label={label ?? words.pendingApprovals} data-chatrail-pending-approvals="">
      {visible.map((record) => (
        <ActionApprovalCard
          key={record.token}
          record={record}
          onApprove={async (token) => keep(await source.approve(token))}
          onReject={async (token, reason) => keep(await source.reject(token, reason))}
          {...(now === undefined ? {} : { now })}
        />
      ))}
    </section>
  )
}

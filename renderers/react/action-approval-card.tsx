import { useState } from 'react'
import type { ReactNode } from 'react'
import type { ActionConfirmation } from '../../src/contract/action-confirmation.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import { useLabels } from './labels.js'

/** What the card shows of a record: a coordinator's record, or the server's client view of one. */
export type ApprovalRecord = Pick<ActionConfirmation, 'token' | 'status' | 'action' | 'expiresAt'> & Partial<Pick<ActionConfirmation, 'decidedBy' | 'reason' | 'outcome'>>

export interface ActionApprovalCardProps {
  record: ApprovalRecord
  /** Approve (a coordinator's `approve`, or a POST `{ id, action: 'approve-action', token }`); a rejection is shown in the card. */
  onApprove: (token: string) => Promise<unknown>
  onReject: (token: string, reason?: string) => Promise<unknown>
  /** Milliseconds since the epoch, to hide the buttons of an expired proposal. Default `Date.now`. */
  now?: () => number
}

/**
 * A proposed action waiting for the user (docs/actions.md): its name and input, Approve and Reject
 * while it is `pending` and not expired, then what was decided. One decision per card: the buttons
 * are disabled from the first click until the answer (the store makes a second approval from
 * anywhere else harmless too). `section[data-chatrail-approval][data-chatrail-approval-state]`.
 */
export function ActionApprovalCard({ record, onApprove, onReject, now = Date.now }: ActionApprovalCardProps): ReactNode {
  const words = useLabels(approvalLabels)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | undefined>()
  const expired = record.status === 'expired' || (record.status === 'pending' && now() >= record.expiresAt)
  const state = expired ? 'expired' : record.status
  const decide = (run: () => Promise<unknown>): void => {
    if (busy) return
    setBusy(true)
    setFailure(undefined)
    run().then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false)
        setFailure(error instanceof Error ? error.message : String(error))
      },
    )
  }
  const final = state === 'approved' ? words.approved : state === 'rejected' ? words.rejected : state === 'expired' ? words.expiredApproval : undefined
  return (
    <section data-chatrail-approval="" data-chatrail-approval-state={state} aria-label={words.confirmAction(record.action.name)}>
      <p data-chatrail-approval-name="">{record.action.name}</p>
      <pre data-chatrail-approval-input="">{JSON.stringify(record.action.input, null, 2)}</pre>
      {state === 'pending' ? (
        <div data-chatrail-dialog-buttons="">
          <button type="button" data-chatrail-approve="" disabled={busy} onClick={() => decide(() => onApprove(record.token))}>{words.approve}</button>
          <button type="button" data-chatrail-reject="" disabled={busy} onClick={() => decide(() => onReject(record.token))}>{words.reject}</button>
        </div>
      ) : (
        <p data-chatrail-approval-outcome="" role="status">
          {final ?? words.deciding}
          {state === 'rejected' && record.reason !== undefined ? `: ${record.reason}` : ''}
          {state === 'approved' && record.outcome?.status === 'error' ? words.actionFailed : ''}
        </p>
      )}
      {failure !== undefined ? <p role="alert" data-chatrail-approval-error="">{failure}</p> : null}
    </section>
  )
}

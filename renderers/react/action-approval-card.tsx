import { useState } from 'react'
import type { ReactNode } from 'react'
import { approvalLabels } from '../../src/view/approval-labels.js'
import { approvalOutcomeOf, approvalStateOf } from '../../src/view/approval-card.js'
import type { ApprovalCardProps } from '../../src/view/approval-card.js'
import type { ApprovalRecord } from '../../src/view/approval-source.js'
import { useLabels } from './labels.js'

/** What the card shows of a record (defined in chatrail/view, re-exported here for chatrail/react/actions' users). */
export type { ApprovalRecord }

/** What the card takes (chatrail/view's `ApprovalCardProps`, the same in every binding). */
export type ActionApprovalCardProps = ApprovalCardProps

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
  const state = approvalStateOf(record, now())
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
          {approvalOutcomeOf(record, state, words)}
        </p>
      )}
      {failure !== undefined ? <p role="alert" data-chatrail-approval-error="">{failure}</p> : null}
    </section>
  )
}

import { useEffect, useId, useState } from 'react'
import type { ReactNode } from 'react'
import { ActionApprovalCard } from './action-approval-card.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import type { ApprovalRecord, ApprovalSource } from '../../src/view/approval-source.js'
import { watchApproval } from '../../src/view/bound-approval.js'
import type { BoundApproval } from '../../src/view/bound-approval.js'
import { ApprovalRequestView } from './component-choice-views.js'
import type { ComponentView, ComponentViewProps } from './component-host.js'
import type { StandardViewProps } from '../../src/view/component-props.js'
import { useLabels } from './labels.js'

/**
 * The `approval-request` component bound to its confirmation record: the record is read from the
 * source by the component's token, and the card shows its status (pending, approved, rejected,
 * expired) from the record, not from a click. Approve and Reject go to the source; the record it
 * answers replaces the one shown. A token the source does not know (or a server without
 * confirmations) is no record here: `unbound` is shown instead — `approvalRequestView` passes the
 * standard view, whose Approve/Reject are chat interactions your routes answer, as without a source.
 */

interface ApprovalProps {
  readonly token: string
  readonly title: string
  readonly action: { readonly name: string; readonly input: Readonly<Record<string, unknown>> }
}

type Loaded = BoundApproval

export interface BoundApprovalRequestProps {
  readonly source: ApprovalSource
  readonly props: ApprovalProps
  /** Milliseconds since the epoch (hides the buttons once the proposal expired). Default `Date.now`. */
  readonly now?: () => number
  /** What to show when the source knows no record for the token. Default: the request, with no buttons. */
  readonly unbound?: ReactNode
}

export function BoundApprovalRequest({ source, props, now, unbound }: BoundApprovalRequestProps): ReactNode {
  const words = useLabels(approvalLabels)
  const base = useId()
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' })
  const { token } = props
  // the record as the source knows it (chatrail/view `watchApproval`): the card shows it, never a click
  useEffect(() => watchApproval(source, token, setLoaded), [source, token])
  if (loaded.state === 'missing' && unbound !== undefined) return unbound
  const show = (record: ApprovalRecord): ApprovalRecord => {
    setLoaded({ state: 'ready', record })
    return record
  }
  return (
    <div role="group" aria-labelledby={`${base}-t`} data-chatrail-component="approval-request" data-chatrail-approval-bound={loaded.state}>
      <p id={`${base}-t`} data-chatrail-component-title="">{props.title}</p>
      {loaded.state === 'ready' ? (
        <ActionApprovalCard
          record={loaded.record}
          onApprove={async (t) => show(await source.approve(t))}
          onReject={async (t, reason) => show(await source.reject(t, reason))}
          {...(now === undefined ? {} : { now })}
        />
      ) : (
        <>
          <p data-chatrail-approval-name="">{props.action.name}</p>
          <pre data-chatrail-approval-input="">{JSON.stringify(props.action.input, null, 2)}</pre>
          {loaded.state === 'loading' ? <p role="status" data-chatrail-component-note="">{words.loadingProposal}</p> : null}
          {loaded.state === 'missing' ? <p role="status" data-chatrail-component-note="">{words.unknownProposal}</p> : null}
          {loaded.state === 'failed' ? <p role="alert" data-chatrail-approval-error="">{loaded.message}</p> : null}
        </>
      )}
    </div>
  )
}

/**
 * A view for `approval-request` (pass it in `componentViews`): every approval request drawn bound
 * to its record in `source` (`coordinatorApprovals(confirmations)` or `serverApprovals({ api, conversationId })`).
 */
export function approvalRequestView(source: ApprovalSource, options: { readonly now?: () => number } = {}): ComponentView {
  return function ApprovalRequestBound({ props, answered, interact }: ComponentViewProps): ReactNode {
    const checked = props as StandardViewProps<'approval-request'>['props']
    return (
      <BoundApprovalRequest
        source={source}
        props={checked}
        unbound={<ApprovalRequestView props={checked} answered={answered} interact={interact} />}
        {...(options.now === undefined ? {} : { now: options.now })}
      />
    )
  }
}

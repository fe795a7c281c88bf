import type { ApprovalRecord } from './approval-source.js'
import { approvalLabels } from './approval-labels.js'

/** What an approval card shows a record as: its status, or `expired` once a pending one ran out of time. */
export type ApprovalCardState = ApprovalRecord['status']

/** What every binding's approval card (React's `<ActionApprovalCard>`, Ink's prompt, Vue's, Svelte's) takes. */
export interface ApprovalCardProps {
  record: ApprovalRecord
  /** Approve (a coordinator's `approve`, or a POST `{ id, action: 'approve-action', token }`); a rejection is shown in the card. */
  onApprove: (token: string) => Promise<unknown>
  onReject: (token: string, reason?: string) => Promise<unknown>
  /** Milliseconds since the epoch, to hide the buttons of an expired proposal. Default `Date.now`. */
  now?: () => number
}

/** Pure: the state a card shows `record` in at `nowMs` (a pending record past `expiresAt` is expired: no buttons). */
export function approvalStateOf(record: ApprovalRecord, nowMs: number): ApprovalCardState {
  return record.status === 'expired' || (record.status === 'pending' && nowMs >= record.expiresAt) ? 'expired' : record.status
}

type OutcomeWords = Pick<typeof approvalLabels, 'approved' | 'rejected' | 'expiredApproval' | 'deciding' | 'actionFailed'>

/**
 * Pure: what a decided card says (undefined while `pending`): Approved (and that the action failed,
 * when it did), Rejected with the reason given, Expired, or Working… while a decision is under way.
 * `words`: the labels (default English).
 */
export function approvalOutcomeOf(record: ApprovalRecord, state: ApprovalCardState, words: OutcomeWords = approvalLabels): string | undefined {
  if (state === 'pending') return undefined
  const final = state === 'approved' ? words.approved : state === 'rejected' ? words.rejected : state === 'expired' ? words.expiredApproval : words.deciding
  const reason = state === 'rejected' && record.reason !== undefined ? `: ${record.reason}` : ''
  const failed = state === 'approved' && record.outcome?.status === 'error' ? words.actionFailed : ''
  return `${final}${reason}${failed}`
}

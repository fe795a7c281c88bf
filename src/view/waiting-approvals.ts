import type { ApprovalSource } from './approval-source.js'
import { wiredListeners } from './listeners.js'
import { waitingApprovalsWith } from './waiting-approvals-store.js'
import type { WaitingApprovals } from './waiting-approvals-store.js'

export type { WaitingApprovals, WaitingApprovalsState } from './waiting-approvals-store.js'

/**
 * The confirmation records of a conversation that a list of what waits shows (`<PendingApprovals>`,
 * the view's `approvals`), as a store over an `ApprovalSource`: read with `refresh` (on mount and
 * after every turn: a route or a tool may have proposed something), decided with `approve` /
 * `reject` (the record the source answers is kept, so a decided one stays in view with its
 * outcome), and kept current by the source's own changes when it reports them (another tab's decision).
 */
export function createWaitingApprovals(source: ApprovalSource): WaitingApprovals {
  return waitingApprovalsWith(source, wiredListeners)
}

// chatrail/react/actions: the approval card for action confirmations (docs/actions.md § In React).
// An entry of its own, so a chat that never confirms an action does not pay for it in chatrail/react.
export { ActionApprovalCard } from './action-approval-card.js'
export type { ActionApprovalCardProps } from './action-approval-card.js'
export type { ApprovalRecord } from '../../src/view/approval-source.js'
export { useActionConfirmation } from './use-action-confirmation.js'
export { approvalRequestView, BoundApprovalRequest } from './bound-approval-request.js'
export type { BoundApprovalRequestProps } from './bound-approval-request.js'
export { coordinatorApprovals, serverApprovals } from '../../src/view/approval-source.js'
export type { ApprovalSource, ServerApprovalsOptions } from '../../src/view/approval-source.js'
export { PendingApprovals } from './pending-approvals.js'
export type { PendingApprovalsProps } from './pending-approvals.js'

// chatrail/react/actions: the approval card for action confirmations (docs/actions.md § In React).
// An entry of its own, so a chat that never confirms an action does not pay for it in chatrail/react.
export { ActionApprovalCard } from './action-approval-card.js'
export type { ActionApprovalCardProps, ApprovalRecord } from './action-approval-card.js'
export { useActionConfirmation } from './use-action-confirmation.js'

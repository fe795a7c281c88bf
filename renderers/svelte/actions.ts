// The `chatrail/svelte/actions` entry: the approval cards for action confirmations (docs/actions.md),
// apart from chatrail/svelte as chatrail/react/actions is, so a chat that never confirms an action
// does not ship it. Its records come from `coordinatorApprovals` / `serverApprovals` (chatrail/view).
import type { Component } from 'svelte'
import ActionApprovalCardComponent from './ActionApprovalCard.svelte'
import PendingApprovalsComponent from './PendingApprovals.svelte'
import type { ActionApprovalCardProps, PendingApprovalsProps } from './props.js'

export type { ActionApprovalCardProps, PendingApprovalsProps } from './props.js'
export { coordinatorApprovals, serverApprovals } from './approvals.js'
export type { ApprovalRecord, ApprovalSource, ServerApprovalsOptions } from './approvals.js'

/** A proposed action waiting for the user: its name and input, Approve and Reject, then what was decided. */
export const ActionApprovalCard: Component<ActionApprovalCardProps> = ActionApprovalCardComponent
/** The confirmation records no message shows (the store's `approvals` option), each an approval card. */
export const PendingApprovals: Component<PendingApprovalsProps> = PendingApprovalsComponent

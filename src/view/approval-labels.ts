/**
 * The English words of chatrail/react/actions (the approval card, its bound form and the list of
 * pending approvals): part of `ChatLabels` (labels.ts), kept here so that only that entry carries them.
 */
export const approvalLabels = {
  approve: 'Approve',
  reject: 'Reject',
  approved: 'Approved',
  rejected: 'Rejected',
  expiredApproval: 'Expired',
  deciding: 'Working…',
  /** After "Approved" when the approved action's execution failed. */
  actionFailed: ' (the action failed)',
  /** The card's accessible name. */
  confirmAction: (name: string): string => `Confirm ${name}`,
  loadingProposal: 'Loading the proposal…',
  unknownProposal: 'This proposal is not known here.',
  pendingApprovals: 'Actions waiting for approval',
}

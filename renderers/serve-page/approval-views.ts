import { approvalRequestView } from '../react/bound-approval-request.js'
import { serverApprovals, type ApprovalSource, type ServerApprovalsOptions } from '../../src/view/approval-source.js'
import type { ComponentViews } from '../react/component-host.js'

/**
 * The serve page's approvals, through the server's endpoints (`list-actions`, `approve-action`,
 * `reject-action` on the page's chat API), with the same cards as chatrail/react/actions: every
 * `approval-request` bound to its confirmation record (`views`), and the records no message shows
 * (`source`, for `<PendingApprovals>`). A server without confirmations answers 501, and a token it
 * does not know is no record: the request is then the standard view, whose Approve/Reject are chat
 * interactions the definition's routes answer, as before.
 */
export function serveApprovals(remote: Pick<ServerApprovalsOptions, 'api' | 'conversationId' | 'headers'>): { source: ApprovalSource; views: ComponentViews } {
  const source = serverApprovals(remote)
  return { source, views: { 'approval-request': approvalRequestView(source) } }
}

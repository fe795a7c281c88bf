import { ChatrailError } from '../contract/errors.js'

/**
 * The view's presentation rules (presentation.ts: the reply Regenerate is offered on, the event
 * bar and the chips, the failure in words, the versions walked) and its confirmations' store
 * (`waitingApprovalsWith`). `createChatView` imports them statically; a mount that draws these
 * parts with UI it loads lazily (chatrail/react's message UI) loads them with it instead
 * (presentation-rules.ts), so its first screen does not carry them.
 */
export { presentationOf } from './presentation.js'
export { waitingApprovalsWith } from './waiting-approvals-store.js'

/** What `approve` / `reject` throw on a view without `options.approvals`. */
export function noApprovalSource(): ChatrailError {
  return new ChatrailError({
    code: 'NO_APPROVAL_SOURCE',
    message: 'createChatView: approve and reject decide through an approval source, and this view has none',
    hint: 'Pass one: createChatView(binding, { approvals: coordinatorApprovals(coordinator) }), or serverApprovals({ api, conversationId }) for a server.',
  })
}

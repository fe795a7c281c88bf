import type { Message } from '../contract/message.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { pausedLoopOf, type ApprovalAnswer, type ToolApprovalRequest } from './tool-approval.js'

/**
 * An answer paused on tool approvals goes on when its records are decided through the endpoint
 * door (`approve-action` / `reject-action`, confirmation-request.ts), not only when a chat sends
 * `addToolApprovalResponse`: the server resumes the turn itself, through the very path the chat
 * door takes (tool-approval.ts), with the answers the records hold. So a page that decides with
 * an approval card (chatrail's own client, the serve page, another tab) sees the model read the
 * call's result, and any client follows the continuation through the resumable stream
 * (`GET <api>/<id>/stream`, resume-stream.ts).
 *
 * Why this is sound: the resumed turn decides each call through its record again
 * (`settleThroughRecords`), where a decided record only answers as it stands, so an approved call
 * is never run twice (the endpoint ran it and kept its result in the record); a rejected or expired
 * one is the denial the model reads. The turn claims the conversation's lease like any turn, so of
 * two instances (or two tabs) deciding at once, one resumes and the other is busy or finds the
 * answer carried out already; a chat approval that comes after finds the stored answer (or, if it
 * contradicts what was decided, `409 approval_conflict`: planApproval).
 */

/**
 * The answers an endpoint resume sends for the conversation's last answer (pure, over the records
 * read from `store`): one per call awaiting approval, as its record was decided (approved; or
 * rejected or expired, a denial with the reason). Undefined when there is nothing to resume: the
 * last message is no paused answer, a call waits without a record (the chat alone answers it), or
 * a record is still pending or being carried out (the door that holds it resumes when it is done).
 */
export async function decidedApprovals(store: ConversationStore, conversationId: string, messages: readonly Message[]): Promise<ToolApprovalRequest | undefined> {
  const answer = messages.at(-1)
  if (answer?.role !== 'assistant') return undefined
  const paused = pausedLoopOf(answer)
  if (!paused) return undefined
  const answers = new Map<string, ApprovalAnswer>()
  for (const call of paused.calls) {
    if (call.approvalId === undefined || call.outcome !== undefined) continue
    const record = call.token === undefined ? undefined : await store.loadConfirmation?.(call.token)
    if (!record || record.toolCallId !== call.approvalId || record.sessionId !== conversationId) return undefined
    if (record.status === 'approved') answers.set(call.approvalId, { approved: true })
    else if (record.status === 'rejected' || record.status === 'expired') answers.set(call.approvalId, { approved: false, reason: record.reason ?? record.status })
    else return undefined
  }
  return answers.size === 0 ? undefined : { conversationId, messageId: answer.id, answers }
}

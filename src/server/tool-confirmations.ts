import type { ActionConfirmation, ConfirmationOutcome } from '../contract/action-confirmation.js'
import type { ActionConfirmationCoordinator } from '../conversation/action-confirmation.js'
import type { ActionExecutor } from '../conversation/action-executor.js'
import { createActionConfirmation } from '../conversation/actions.js'
import type { ConversationStore } from '../store/conversation-store.js'
import { confirmationLedgerOf } from '../store/confirmation-ledger-of.js'
import type { ConfirmationEndpointOptions } from './confirmation-request.js'
import { HttpError } from './http-responses.js'
import type { ServerTools } from './server-tools.js'
import { approvalIdempotencyKey } from './tool-approval.js'
import { runToolCall, type CallOutcome, type PausedCall, type PausedLoop, type ResumeInput } from './tool-loop.js'

/**
 * The AI SDK's tool approvals as confirmation records: one surface with the app's own actions.
 * When the handler serves confirmations, a turn that pauses on a call needing approval proposes a
 * record for it (its `toolCallId` the approval id, its `idempotencyKey` the one the call runs under)
 * before the answer is stored, and keeps the record's token in the paused loop. Then two doors lead
 * to one compare-and-swap on that record:
 * - `POST { action: 'approve-action' | 'reject-action', token }` (confirmation-request.ts) decides
 *   it and, approved, runs the call here (the tool's schema, timeout and result as in the loop),
 *   keeping the result in the record's outcome;
 * - `addToolApprovalResponse` (tool-approval.ts) resumes the paused turn, which decides the record
 *   the same way and reads the call's outcome from it.
 * Whichever door is first decides; the other finds the decision: the same answer goes on with the
 * recorded result (never running the call again), one contrary to a person's decision is 409
 * `approval_conflict`. So a call runs at most once whichever way the approval comes, and never
 * after a rejection, an expiry or a policy's refusal.
 */

export interface ToolConfirmationContext {
  /** A store that keeps confirmation records. */
  readonly store: ConversationStore
  /** The definition's tools, as the turn's loop runs them. */
  readonly tools: ServerTools
  readonly ttlMs?: number | undefined
  readonly claimMs?: number | undefined
  readonly policy?: ConfirmationEndpointOptions['policy']
  readonly clock: () => number
}

/** The definition's tools a person approves before they run (`requiresConfirmation` with `execute`). */
export const approvedTools = (tools: ServerTools | undefined): ReadonlySet<string> =>
  new Set((tools?.tools ?? []).filter((tool) => tool.requiresConfirmation === true && tool.execute !== undefined).map((tool) => tool.name))

/** A call's outcome as a record keeps it: the text the model reads is the result, also on error. */
const recordedOutcome = (outcome: CallOutcome): ConfirmationOutcome =>
  outcome.error ? { status: 'error', error: outcome.text, result: outcome.text } : { status: 'complete', result: outcome.text }

/** The model's call id inside an approval id (`<answer id>.step<n>.<call id>`, tool-loop.ts); the approval id when it is not one. */
const callIdOf = (approvalId: string): string => /\.step\d+\.(.+)$/.exec(approvalId)?.[1] ?? approvalId

/**
 * Runs an approved call of the definition's tools as the loop would (the schema checked, under the
 * tool timeout, the result serialised); no conversation history (it runs outside a turn).
 */
export function toolCallExecutor(tools: ServerTools): ActionExecutor {
  return {
    async execute(record, context) {
      const call = { id: callIdOf(record.toolCallId), name: record.action.name, args: structuredClone(record.action.input) as Record<string, unknown> }
      return recordedOutcome(await runToolCall({ ...tools, messages: [] }, call, new AbortController().signal, context.idempotencyKey))
    },
  }
}

/**
 * The conversation's coordinator over the store, its executor `executor`. `checked`: with the
 * handler's policy (checked again right before a call runs, through either door); the proposal of a
 * model's call is made without it, so a refusal denies the call when it is approved instead of
 * leaving it to the chat alone.
 */
function coordinatorOf(context: ToolConfirmationContext, conversationId: string, principal: string | undefined, executor: ActionExecutor, checked = true): ActionConfirmationCoordinator {
  const policy = checked ? context.policy?.(conversationId, principal) : undefined
  return createActionConfirmation({
    sessionId: conversationId,
    ...(principal === undefined ? {} : { principal }),
    executor,
    ledger: confirmationLedgerOf(context.store),
    ...(policy === undefined ? {} : { policy }),
    ...(context.ttlMs === undefined ? {} : { ttlMs: context.ttlMs }),
    ...(context.claimMs === undefined ? {} : { claimMs: context.claimMs }),
    now: context.clock,
  })
}

/**
 * A record per call awaiting approval, proposed before the paused answer is stored (so a client
 * that reads the answer finds them); the paused loop comes back with each record's token. A call
 * whose record cannot be made (its input is not plain JSON of at most 16 KiB) has none and is
 * answered through the chat alone, as without confirmations.
 */
export async function proposeToolApprovals(context: ToolConfirmationContext, conversationId: string, principal: string | undefined, paused: PausedLoop): Promise<PausedLoop> {
  const coordinator = coordinatorOf(context, conversationId, principal, toolCallExecutor(context.tools), false)
  try {
    const calls: PausedCall[] = []
    for (const call of paused.calls) {
      if (call.approvalId === undefined || call.outcome !== undefined || call.token !== undefined) {
        calls.push(call)
        continue
      }
      const record = await coordinator
        .propose({ name: call.name, input: call.args }, { toolCallId: call.approvalId, idempotencyKey: approvalIdempotencyKey(conversationId, call.approvalId) })
        .catch(() => undefined)
      calls.push(record ? { ...call, token: record.token } : call)
    }
    return { ...paused, calls }
  } finally {
    coordinator.dispose()
  }
}

/**
 * The records of a resumed answer's calls, read before the turn streams: an answer that
 * contradicts a decision already taken through the other door is 409 `approval_conflict`, and a
 * record being carried out elsewhere right now is 409 `approval_in_progress` (retry shortly).
 */
export async function recordsForApproval(context: ToolConfirmationContext, paused: PausedLoop, answers: ReadonlyMap<string, { readonly approved: boolean }>): Promise<Map<string, ActionConfirmation>> {
  const records = new Map<string, ActionConfirmation>()
  const now = context.clock()
  for (const call of paused.calls) {
    if (call.token === undefined || call.approvalId === undefined || call.outcome !== undefined) continue
    const record = await context.store.loadConfirmation?.(call.token)
    if (!record) continue
    records.set(call.approvalId, record)
    const approved = answers.get(call.approvalId)?.approved
    // only a person's decision conflicts: after an expiry or a policy's refusal the answer goes on, and the model reads why it did not run
    if ((record.status === 'approved' || record.status === 'rejected') && record.decidedBy !== 'policy') {
      const decided = record.status === 'approved'
      if (approved !== undefined && approved !== decided) {
        throw new HttpError(409, 'approval_conflict', `The call "${call.name}" was ${record.status} already through its confirmation (approve-action / reject-action); this answer cannot change that. Reload the conversation.`)
      }
    } else if (record.status !== 'pending' && record.status !== 'expired' && record.claim !== undefined && record.claim.until > now) {
      const seconds = Math.max(1, Math.ceil((record.claim.until - now) / 1000))
      throw new HttpError(409, 'approval_in_progress', `The call "${call.name}" is being carried out through its confirmation right now; retry after it ends.`, { headers: { 'retry-after': String(seconds) } })
    }
  }
  return records
}

/** What the model reads for a call whose record says how it ended. */
function outcomeOfRecord(record: ActionConfirmation): CallOutcome {
  if (record.status === 'approved') {
    const outcome = record.outcome
    if (outcome?.status === 'error') return { error: true, text: outcome.result ?? outcome.error ?? 'The call failed.' }
    return { error: false, text: outcome?.result ?? '' }
  }
  if (record.status === 'rejected') return { error: true, denied: true, text: `The user denied this call${record.reason ? ` (${record.reason})` : ''}; it was not run.` }
  if (record.status === 'expired') return { error: true, denied: true, text: 'The approval of this call expired; it was not run.' }
  // decided elsewhere a moment ago and still being carried out there: this turn cannot wait for it
  return { error: true, text: 'This call is being carried out through its confirmation elsewhere; its result is not known to this answer.' }
}

/**
 * The loop's `settle` (tool-loop.ts) for a resumed turn: an answered call with a record is decided
 * through it (approve or reject by compare-and-swap; approved, `run` executes it under the turn's
 * abort), and the model reads what the record says, whoever decided it.
 */
export function settleThroughRecords(context: ToolConfirmationContext, conversationId: string, principal: string | undefined, records: ReadonlyMap<string, ActionConfirmation>): NonNullable<ResumeInput['settle']> {
  return async (call, run) => {
    const record = call.approvalId === undefined ? undefined : records.get(call.approvalId)
    if (!record) return undefined
    const executor: ActionExecutor = { execute: async (_record, execution) => recordedOutcome(await run(execution.idempotencyKey)) }
    const coordinator = coordinatorOf(context, conversationId, principal, executor)
    const caller = { sessionId: conversationId, ...(principal === undefined ? {} : { principal }) }
    try {
      const decided = call.answer?.approved === true ? await coordinator.approve(record.token, caller) : await coordinator.reject(record.token, caller, call.answer?.reason)
      return outcomeOfRecord(decided)
    } catch (error) {
      // never run outside the record: the model is told, and the record keeps whatever was decided
      return { error: true, text: `The approval could not be carried out: ${error instanceof Error ? error.message : String(error)}` }
    } finally {
      coordinator.dispose()
    }
  }
}

import type { ActionConfirmation } from '../contract/action-confirmation.js'
import { isComponentPart } from '../contract/component-chunk.js'
import type { Message } from '../contract/message.js'
import type { ActionConfirmationCoordinator, ConfirmationCaller } from '../conversation/action-confirmation.js'
import { announceContinuation } from './approval-continuations.js'

/** What an approval card shows of a record: a coordinator's record, or the server's client view of one. */
export type ApprovalRecord = Pick<ActionConfirmation, 'token' | 'status' | 'action' | 'expiresAt'> & Partial<Pick<ActionConfirmation, 'decidedBy' | 'reason' | 'outcome'>>

/**
 * Where an approval card reads and decides the record an `approval-request` component is bound
 * to (by its token): a local coordinator, or the server's confirmation endpoints. The card shows
 * what the source answers, never what a click assumed, and every decision goes through the
 * source, whose store (its compare-and-swap) lets exactly one approval execute, whatever the tab,
 * the reload or the double click.
 */
export interface ApprovalSource {
  /** The record for `token`, or undefined when this source does not know it. */
  read: (token: string) => Promise<ApprovalRecord | undefined>
  approve: (token: string) => Promise<ApprovalRecord>
  reject: (token: string, reason?: string) => Promise<ApprovalRecord>
  /** The conversation's records (expired ones swept), for a list of what waits (`<PendingApprovals>`). */
  list?: () => Promise<readonly ApprovalRecord[]>
  /** Changes this source sees (a local coordinator's), to keep a card current without asking. */
  subscribe?: (listener: (record: ApprovalRecord) => void) => () => void
}

/** A local coordinator as an approval source; decisions are made as `caller` (default: the coordinator's session). */
export function coordinatorApprovals(confirmations: ActionConfirmationCoordinator, caller: string | ConfirmationCaller = confirmations.sessionId): ApprovalSource {
  return {
    read: (token) => confirmations.get(token),
    approve: (token) => confirmations.approve(token, caller),
    reject: (token, reason) => confirmations.reject(token, caller, reason),
    list: () => confirmations.list(),
    subscribe: (listener) => confirmations.subscribe((change) => listener(change.record)),
  }
}

export interface ServerApprovalsOptions {
  /** The chat endpoint (`createChatHandler`'s), e.g. `/api/chat`. */
  readonly api: string
  readonly conversationId: string
  readonly headers?: Readonly<Record<string, string>>
  readonly fetch?: typeof globalThis.fetch
}

/** The server's endpoints (`list-actions`, `approve-action`, `reject-action`, docs/actions.md § Through the server) as an approval source. */
export function serverApprovals(options: ServerApprovalsOptions): ApprovalSource {
  const post = async (body: Record<string, string>, unconfigured?: 'undefined'): Promise<unknown> => {
    const send = options.fetch ?? globalThis.fetch
    const response = await send(options.api, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ id: options.conversationId, ...body }),
    })
    // a server without confirmations (501) knows no record: nothing to read, nothing to decide
    if (response.status === 501 && unconfigured === 'undefined') return undefined
    const answer = (await response.json().catch(() => undefined)) as { error?: unknown; message?: unknown } | undefined
    if (!response.ok) throw new Error(typeof answer?.message === 'string' ? answer.message : `The server answered ${response.status}${typeof answer?.error === 'string' ? ` (${answer.error})` : ''}.`)
    return answer
  }
  const decided = async (body: Record<string, string>): Promise<ApprovalRecord> => {
    const answer = (await post(body)) as { confirmation?: ApprovalRecord; continuing?: unknown }
    if (answer.confirmation === undefined) throw new Error('The server answered without the confirmation.')
    // the server resumed the answer paused on this call: the page's remote chat shows it (approval-continuations.ts)
    if (answer.continuing === true) announceContinuation(options.api, options.conversationId)
    return answer.confirmation
  }
  return {
    async read(token) {
      const answer = (await post({ action: 'list-actions' }, 'undefined')) as { confirmations?: ApprovalRecord[] } | undefined
      return answer?.confirmations?.find((record) => record.token === token)
    },
    async list() {
      const answer = (await post({ action: 'list-actions' }, 'undefined')) as { confirmations?: ApprovalRecord[] } | undefined
      return answer?.confirmations ?? []
    },
    approve: (token) => decided({ action: 'approve-action', token }),
    reject: (token, reason) => decided({ action: 'reject-action', token, ...(reason === undefined ? {} : { reason }) }),
  }
}

/** Pure: the tokens the history's `approval-request` components are bound to (those cards show their own record). */
export function approvalTokensIn(messages: readonly Message[]): ReadonlySet<string> {
  const tokens = new Set<string>()
  for (const message of messages) {
    for (const part of message.parts ?? []) {
      const token = isComponentPart(part) && part.componentKey === 'approval-request' ? (part.props as { token?: unknown } | null)?.token : undefined
      if (typeof token === 'string') tokens.add(token)
    }
  }
  return tokens
}

/** A record on its way to a decision (claimed by an approval, a rejection or an expiry that has not finished). */
const DECIDING: ReadonlySet<ApprovalRecord['status']> = new Set(['approving', 'executing', 'rejecting', 'expiring'])

/**
 * Pure: the records a list of what waits shows (`<PendingApprovals>`, the view's `approvals`): the
 * source's records no message shows, each as decided here if it was (`decided`, by token): the
 * pending ones, those being decided (a card says Working… while this tab's or another's decision
 * runs), and those decided here (the outcome stays in view).
 */
export function waitingApprovalsOf(records: readonly ApprovalRecord[], decided: ReadonlyMap<string, ApprovalRecord>, messages: readonly Message[]): ApprovalRecord[] {
  const shown = approvalTokensIn(messages)
  return records
    .map((record) => decided.get(record.token) ?? record)
    .filter((record) => !shown.has(record.token) && (record.status === 'pending' || DECIDING.has(record.status) || decided.has(record.token)))
}

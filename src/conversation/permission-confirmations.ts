import type { ActionConfirmation } from '../contract/action-confirmation.js'
import type { ActionConfirmationCoordinator, ActionConfirmationOptions, ConfirmationCaller } from './action-confirmation.js'
import type { ActionExecutor } from './action-executor.js'
import type { ActionKit } from './action-kit.js'
import { actionConfirmationWith } from './action-confirmation.js'

/**
 * A coding agent's permission requests (Claude Code's `can_use_tool`, OpenCode's `permission.asked`)
 * as confirmation records: one surface with the app's actions and the AI SDK's tool approvals. Each
 * request is proposed as a record (its `toolCallId` the agent's request id, its action the tool and
 * its input); the record's executor sends the allow to the waiting agent, and its withdrawal
 * (reject, expiry) sends the deny. So whichever way the person answers (an approval card, the
 * server's approve/reject endpoints, `answer()` from the agent's own dialog), the record's one
 * compare-and-swap decides, and the agent hears exactly one answer.
 */

/** One permission request of a running agent. */
export interface AgentPermissionRequest {
  /** The agent's id for the request (Claude Code's tool use id, OpenCode's `per_…`): the record's `toolCallId`. */
  readonly requestId: string
  /** The tool (or OpenCode permission) asked for: the record's action name. */
  readonly toolName: string
  /** What the tool would do (a command, a path): the record's action input. */
  readonly input: Readonly<Record<string, unknown>>
  /**
   * The conversation whose turn asks, when the agent's adapter knows it (chatrail/server names it
   * for a live agent's turns): a gate shared by many conversations files the record under it
   * (`chatrail serve --agent`); a gate made for one conversation keeps its own `sessionId`.
   */
  readonly conversationId?: string
}

/** What the agent is told. `reason` says why it was denied (the rejection's reason, or expiry). */
export type AgentPermissionVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string }

export interface PermissionConfirmationOptions extends Omit<ActionConfirmationOptions, 'chat' | 'tools' | 'executor'> {
  /**
   * How often a waiting request reads its record again (milliseconds, default 1000): a decision
   * taken elsewhere (the server's endpoints, another instance on the same store) is handed over
   * here, where the agent waits, and an overdue proposal is expired (the agent hears the deny).
   */
  readonly pollMs?: number
}

export interface PermissionConfirmations {
  /** The coordinator that holds the records: approve or reject them here, through the server, or a card. */
  readonly confirmations: ActionConfirmationCoordinator
  /**
   * Proposes a record for `request` and resolves once it is decided (the agent waits meanwhile). A
   * request whose record cannot be made (its input is not plain JSON of at most 16 KiB, the policy
   * refuses it) is denied at once, with the reason.
   */
  ask: (request: AgentPermissionRequest) => Promise<AgentPermissionVerdict>
  /**
   * The old door: an answer from the agent's own dialog (`session.answerDialog`) decides the
   * request's record (approve or reject) instead of answering the agent directly, so the two are one
   * decision. Undefined when no record waits for `requestId` here.
   */
  answer: (requestId: string, allowed: boolean, caller: string | ConfirmationCaller, reason?: string) => Promise<ActionConfirmation> | undefined
  /** Stops waiting: every request still waiting is denied (the agent's turn ended). */
  dispose: () => void
}

/** `permissionConfirmations` over `kit` (action-kit.ts); the public one is in actions.ts. */
export const permissionConfirmationsWith = (kit: ActionKit) => (options: PermissionConfirmationOptions): PermissionConfirmations => {
  const waiting = new Map<string, { readonly token?: string; readonly resolve: (verdict: AgentPermissionVerdict) => void }>()
  const settle = (requestId: string, verdict: AgentPermissionVerdict): boolean => {
    const waiter = waiting.get(requestId)
    if (!waiter) return false
    waiting.delete(requestId)
    waiter.resolve(verdict)
    return true
  }
  const executor: ActionExecutor = {
    async execute(record) {
      // the allow reaches the agent only while it still waits (this process, this turn)
      if (settle(record.toolCallId, { allowed: true })) return { status: 'complete', result: 'allowed' }
      return { status: 'error', error: 'The agent no longer waits for this permission; nothing was allowed.' }
    },
    async withdraw(record, reason) {
      settle(record.toolCallId, { allowed: false, reason })
    },
  }
  const { pollMs: pollOption, ...coordinatorOptions } = options
  const confirmations = actionConfirmationWith(kit)({ ...coordinatorOptions, executor })
  const describe = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown))
  const pollMs = pollOption ?? 1000
  if (!Number.isSafeInteger(pollMs) || pollMs <= 0) throw kit.configError('invalid_confirmation', ['pollMs'], `pollMs must be a positive whole number of milliseconds (got ${String(pollMs)}).`, 'Omit it for the default (1000).')

  /**
   * Reads a waiting request's record again. A decision another process took but could not deliver
   * (its executor is not where the agent waits: it gave up its claim) is taken over and finished
   * here; an overdue proposal is expired; a record decided for good is told to the agent as it
   * stands. The waiter is resolved at most once, so the agent hears one answer.
   */
  const check = async (requestId: string, token: string): Promise<void> => {
    const record = await confirmations.reconcile(token)
    if (record?.status === 'approved') settle(requestId, { allowed: true })
    else if (record?.status === 'rejected' || record?.status === 'expired') settle(requestId, { allowed: false, reason: record.reason ?? record.status })
  }
  const watch = (requestId: string, token: string): void => {
    const timer = setInterval(() => {
      if (!waiting.has(requestId)) {
        clearInterval(timer)
        return
      }
      void check(requestId, token).catch(() => undefined)
    }, pollMs)
    if (typeof timer === 'object' && 'unref' in timer) timer.unref()
  }
  return {
    confirmations,
    ask(request) {
      return new Promise<AgentPermissionVerdict>((resolve) => {
        waiting.set(request.requestId, { resolve })
        confirmations.propose({ name: request.toolName, input: request.input }, { toolCallId: request.requestId }).then(
          (record) => {
            if (!waiting.has(request.requestId)) return
            waiting.set(request.requestId, { token: record.token, resolve })
            watch(request.requestId, record.token)
          },
          (error: unknown) => void settle(request.requestId, { allowed: false, reason: `The permission could not be asked for: ${describe(error)}` }),
        )
      })
    },
    answer(requestId, allowed, caller, reason) {
      const token = waiting.get(requestId)?.token ?? confirmations.getByToolCall(requestId)?.token
      if (token === undefined) return undefined
      return allowed ? confirmations.approve(token, caller) : confirmations.reject(token, caller, reason)
    },
    dispose() {
      for (const requestId of [...waiting.keys()]) settle(requestId, { allowed: false, reason: 'The turn ended before the permission was decided.' })
      confirmations.dispose()
    },
  }
}

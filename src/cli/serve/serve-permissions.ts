import type { ActionConfirmation } from '../../contract/action-confirmation.js'
import { permissionConfirmations, type AgentPermissionRequest, type AgentPermissionVerdict, type PermissionConfirmations } from '../../conversation/actions.js'
import { confirmationLedgerOf, type ConversationStore } from '../../store/index.js'

/**
 * `chatrail serve --agent claude-code|opencode`: the agent's permission requests as confirmation
 * records of the conversation whose turn asks. One agent adapter serves every conversation, so one
 * gate (chatrail/actions' `permissionConfirmations`) per conversation is made on its first request,
 * over the server's store, under the conversation's id and the principal the server answers with:
 * the server's `list-actions` / `approve-action` / `reject-action` for that conversation, and the
 * page's approval cards, list and decide them, and the gate where the agent waits carries the
 * decision out (the allow, or the deny with its reason). A gate is let go when nothing waits in it.
 * A request that names no conversation (an adapter used outside the server) is denied, with why.
 */
export interface ServePermissions {
  /** What the agents' adapters call: Claude Code through `permissionRequestsThrough`, OpenCode as `permissions`. */
  readonly ask: (request: AgentPermissionRequest) => Promise<AgentPermissionVerdict>
  /** OpenCode's `answerDialog` on a permission: decides the request's record in its conversation's gate. */
  readonly answer: (requestId: string, allowed: boolean, caller: string, reason?: string) => Promise<ActionConfirmation> | undefined
  /** OpenCode's gate shape names a session; a gate of many conversations names none of its own. */
  readonly confirmations: { readonly sessionId: string }
  /** Denies every request still waiting (the server stops). */
  readonly dispose: () => void
}

export interface ServePermissionOptions {
  /** The server's store, open by the time a turn runs (the adapter is made before it opens). */
  readonly store: () => ConversationStore
  /** The principal the server's `authenticate` answers with (`'token'` with `--token`; none without). */
  readonly principal: string | undefined
  /** How long a request waits for a person. Default 5 minutes (the confirmation default). */
  readonly ttlMs?: number
  /** How often a waiting request reads its record again. Default 1 s. */
  readonly pollMs?: number
}

export function servePermissions(options: ServePermissionOptions): ServePermissions {
  const gates = new Map<string, { readonly gate: PermissionConfirmations; waiting: number }>()
  const gateOf = (conversationId: string): { readonly gate: PermissionConfirmations; waiting: number } => {
    let entry = gates.get(conversationId)
    if (!entry) {
      const gate = permissionConfirmations({
        sessionId: conversationId,
        ledger: confirmationLedgerOf(options.store()),
        ...(options.principal === undefined ? {} : { principal: options.principal }),
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
      })
      entry = { gate, waiting: 0 }
      gates.set(conversationId, entry)
    }
    return entry
  }
  return {
    async ask(request) {
      const conversationId = request.conversationId
      if (conversationId === undefined) return { allowed: false, reason: 'This permission request names no conversation, so nobody can be asked; it was denied.' }
      const entry = gateOf(conversationId)
      entry.waiting++
      try {
        return await entry.gate.ask(request)
      } finally {
        if (--entry.waiting === 0 && gates.get(conversationId) === entry) {
          gates.delete(conversationId)
          entry.gate.dispose()
        }
      }
    },
    answer(requestId, allowed, _caller, reason) {
      // the caller is the conversation the request waits in (its gate's own session and principal)
      for (const [conversationId, { gate }] of gates) {
        const caller = { sessionId: conversationId, ...(options.principal === undefined ? {} : { principal: options.principal }) }
        const deciding = gate.answer(requestId, allowed, caller, reason)
        if (deciding) return deciding
      }
      return undefined
    },
    confirmations: { sessionId: '' },
    dispose() {
      for (const { gate } of gates.values()) gate.dispose()
      gates.clear()
    },
  }
}

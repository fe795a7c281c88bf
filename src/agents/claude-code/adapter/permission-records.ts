import type { AgentPermissionRequest, AgentPermissionVerdict } from '../../../conversation/permission-confirmations.js'
import type { PermissionDecision } from './claude-control-request.js'
import type { ClaudePermissionRequest } from './claude-code-options.js'

/**
 * Claude Code's `onPermissionRequest` deciding every permission prompt (`can_use_tool` for a tool
 * neither allowed up front nor a dialog) through a confirmation record: pass chatrail/actions'
 * `permissionConfirmations(...)`. The CLI waits while the record is pending; approving it (a card,
 * the server's approve-action, any tab) sends the allow with the input as asked, a rejection or
 * expiry the deny with its reason. One record, one answer to the CLI.
 */
export function permissionRequestsThrough(gate: { readonly ask: (request: AgentPermissionRequest) => Promise<AgentPermissionVerdict> }): (request: ClaudePermissionRequest) => Promise<PermissionDecision> {
  return async (request) => {
    const verdict = await gate.ask({ requestId: request.toolUseId, toolName: request.toolName, input: request.input, ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }) })
    return verdict.allowed ? { behavior: 'allow', updatedInput: request.input } : { behavior: 'deny', message: verdict.reason }
  }
}

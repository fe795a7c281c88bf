import { ChatrailError } from '../../../contract/errors.js'
import type { Dialog, DialogAnswerInput, DialogAnswerResult } from '../../../contract/dialog.js'
import type { AgentSnapshot } from '../../../contract/agent-snapshot.js'
import type { JsonRecord } from '../../process/json-value.js'
import { dialogFromToolUse, isDialogTool } from '../dialog-mapping.js'
import { questionState } from '../derive-state.js'
import { controlResponseLine } from './claude-control-request.js'
import type { CanUseToolRequest, PermissionDecision } from './claude-control-request.js'
import type { ClaudePermissionRequest } from './claude-code-options.js'
import { answerAsNextTurn, decisionForAnswer } from './dialog-answer.js'

/**
 * The permission requests a running Claude Code turn is waiting on (`can_use_tool` control
 * requests): dialogs (AskUserQuestion, ExitPlanMode) wait for `answer()` from the chat; any other
 * tool is decided by `onPermissionRequest` (default: deny). `overlay` shows them in the run state,
 * above what the transcript says: a dialog → `question` with `pendingDialog` (answerable), a
 * permission → `needs_input` / `waiting_for_approval`.
 */

export interface ClaudeLiveDialogs {
  /** Handles one control request; `write` sends a line to the CLI's stdin. */
  request: (request: CanUseToolRequest, write: (line: string) => void) => void
  /** The CLI withdrew a request (`control_cancel_request`). */
  cancel: (requestId: string) => void
  /** The turn's process is gone: nothing can be answered live any more. */
  clear: () => void
  overlay: (snapshot: AgentSnapshot) => AgentSnapshot
  answer: (toolId: string, answer: DialogAnswerInput, snapshot: AgentSnapshot | undefined) => Promise<DialogAnswerResult>
}

interface PendingDialog {
  dialog: Dialog
  input: JsonRecord
  requestId: string
  write: (line: string) => void
}

export function createClaudeLiveDialogs(options: {
  onPermissionRequest?: (request: ClaudePermissionRequest) => PermissionDecision | Promise<PermissionDecision>
  onChange: () => void
}): ClaudeLiveDialogs {
  const dialogs = new Map<string, PendingDialog>()
  const permissions = new Map<string, CanUseToolRequest>()

  async function decidePermission(request: CanUseToolRequest, write: (line: string) => void): Promise<void> {
    permissions.set(request.requestId, request)
    options.onChange()
    let decision: PermissionDecision
    try {
      decision = options.onPermissionRequest
        ? await options.onPermissionRequest({ toolName: request.toolName, toolUseId: request.toolUseId, input: request.input })
        : defaultDenial(request.toolName)
    } catch (error) {
      decision = { behavior: 'deny', message: `Permission handler failed: ${error instanceof Error ? error.message : String(error)}` }
    }
    // Withdrawn or the turn ended meanwhile: the CLI no longer waits for this answer.
    if (!permissions.delete(request.requestId)) return
    write(controlResponseLine(request.requestId, decision))
    options.onChange()
  }

  return {
    request(request, write) {
      if (isDialogTool(request.toolName)) {
        // Answerable here even where the CLI's own picker would be the only way.
        const dialog = { ...dialogFromToolUse(request.toolUseId, request.toolName, request.input), answerable: true }
        dialogs.set(request.toolUseId, { dialog, input: request.input, requestId: request.requestId, write })
        options.onChange()
        return
      }
      void decidePermission(request, write)
    },
    cancel(requestId) {
      const removedPermission = permissions.delete(requestId)
      let removedDialog = false
      for (const [toolId, pending] of dialogs) {
        if (pending.requestId === requestId) removedDialog = dialogs.delete(toolId)
      }
      if (removedPermission || removedDialog) options.onChange()
    },
    clear() {
      if (dialogs.size === 0 && permissions.size === 0) return
      dialogs.clear()
      permissions.clear()
      options.onChange()
    },
    overlay(snapshot) {
      const dialog = [...dialogs.values()].at(-1)?.dialog
      if (dialog) return { ...snapshot, ...questionState(dialog.kind), pendingDialog: dialog }
      const permission = [...permissions.values()].at(-1)
      if (permission) {
        return { agent: snapshot.agent, state: 'needs_input', status: 'waiting_for_approval', detail: `permission to use ${permission.toolName}` }
      }
      return snapshot
    },
    async answer(toolId, answer, snapshot) {
      const pending = dialogs.get(toolId)
      if (pending) {
        const decision = decisionForAnswer(pending.dialog, pending.input, answer)
        dialogs.delete(toolId)
        pending.write(controlResponseLine(pending.requestId, decision))
        options.onChange()
        return { delivered: 'live' }
      }
      const shown = snapshot?.pendingDialog
      if (shown?.toolId === toolId) return { delivered: 'next-turn', text: answerAsNextTurn(shown, answer) }
      throw new ChatrailError({
        code: 'NO_PENDING_DIALOG',
        message: `Claude Code has no pending dialog ${toolId}${shown ? ` (the pending one is ${shown.toolId})` : ''}.`,
        hint: 'Answer the dialog shown in getSnapshot().agent.pendingDialog, while it is there.',
      })
    },
  }
}

function defaultDenial(toolName: string): PermissionDecision {
  return {
    behavior: 'deny',
    message: `${toolName} needs permission, and this chat does not grant it. Allow it up front with the adapter's \`allowedTools\` or \`permissionMode\`, or decide it in \`onPermissionRequest\`.`,
  }
}

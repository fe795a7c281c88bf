import { recordField, stringField } from '../../process/json-value.js'
import type { JsonRecord } from '../../process/json-value.js'

/**
 * Claude Code's permission channel in headless mode. With `--permission-prompt-tool stdio` (and
 * `--input-format stream-json`), every tool that would prompt — AskUserQuestion and ExitPlanMode
 * included, which plain `-p` mode does not even offer — arrives on stdout as
 *
 *   {"type":"control_request","request_id":"…","request":{"subtype":"can_use_tool","tool_name":"…",
 *    "input":{…},"tool_use_id":"toolu_…", …}}
 *
 * and waits for one line on stdin:
 *
 *   {"type":"control_response","response":{"subtype":"success","request_id":"…",
 *    "response":{"behavior":"allow","updatedInput":{…}} | {"behavior":"deny","message":"…"}}}
 *
 * (verified against CLI 2.1.197). An AskUserQuestion is answered by allowing it with
 * `updatedInput.answers` (question text → label, multi-select labels joined by ", "); the CLI then
 * writes the same "Your questions have been answered: …" tool result as its own picker does.
 */

export interface CanUseToolRequest {
  requestId: string
  toolName: string
  toolUseId: string
  input: JsonRecord
}

export type PermissionDecision =
  | { behavior: 'allow'; updatedInput?: JsonRecord }
  | { behavior: 'deny'; message: string }

/** The `can_use_tool` request in a stdout event, or `undefined` for any other event. */
export function parseCanUseToolRequest(event: JsonRecord): CanUseToolRequest | undefined {
  if (event.type !== 'control_request') return undefined
  const request = recordField(event, 'request')
  const requestId = stringField(event, 'request_id')
  const toolName = stringField(request, 'tool_name')
  if (!request || request.subtype !== 'can_use_tool' || requestId === undefined || toolName === undefined) return undefined
  return {
    requestId,
    toolName,
    toolUseId: stringField(request, 'tool_use_id') ?? requestId,
    input: recordField(request, 'input') ?? {},
  }
}

/** The stdin line that answers a control request. */
export function controlResponseLine(requestId: string, decision: PermissionDecision): string {
  return JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response: decision } })
}

/** The answer line for a control request this adapter does not understand (so the CLI never hangs). */
export function controlErrorLine(requestId: string, message: string): string {
  return JSON.stringify({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error: message } })
}

import type { AgentTool } from '../../contract/agent-chat.js'
import { isObject, stringField } from './rollout-line.js'
import type { Json } from './rollout-line.js'

/**
 * What a rollout says about a tool call's result, from any of the shapes Codex has written:
 * `function_call_output` (plain text with an `Exit code:` / `Process exited with code` header,
 * JSON-in-a-string with `metadata.exit_code`, or structured parts), `item_completed`
 * CommandExecution / McpToolCall / FileChange items, and the `exec_command_end`,
 * `patch_apply_end`, `mcp_tool_call_end` events. A non-zero exit code or a failed / declined
 * status marks the chip `error`. All functions here are pure.
 */
export interface ToolPatch {
  status?: 'ok' | 'error'
  output?: string
  /**
   * The output is what a command printed so far, not its result: unified exec yielded while the
   * process still ran (`Process running with session ID N` in the header). The chip stays running
   * until an item or end event settles it.
   */
  stillRunning?: true
}

const FAILED_STATUSES = new Set(['failed', 'declined', 'rejected', 'error'])

/**
 * Merges a patch into a chip. `error` is sticky (a later plain output cannot clear it); `ok` only
 * settles a running chip, and a `stillRunning` output never does; the first non-empty output of a
 * settled chip is kept (the item events that carry the clean command output come before the
 * model-facing `function_call_output`).
 */
export function applyToolPatch(tool: AgentTool, patch: ToolPatch): AgentTool {
  let status = tool.status
  if (patch.status === 'error') status = 'error'
  else if (status === 'running' && patch.stillRunning !== true && (patch.status === 'ok' || patch.output !== undefined)) status = 'ok'
  // A running chip's output can only be a yielded partial one: the settling output replaces it.
  const settles = tool.status === 'running' && status !== 'running' && patch.output !== undefined && patch.output !== ''
  const output = settles || tool.output === undefined || tool.output === '' ? (patch.output ?? tool.output) : tool.output
  if (status === tool.status && output === tool.output) return tool
  return output === undefined ? { ...tool, status } : { ...tool, status, output }
}

/** `function_call_output` / `custom_tool_call_output` / `tool_search_output` payloads. */
export function patchFromOutput(item: Json): ToolPatch {
  const raw = item.output
  if (typeof raw === 'string') return patchFromOutputText(raw)
  if (isObject(raw) && raw.success === false) return { status: 'error', output: partsText(raw) }
  const text = partsText(raw)
  return text === undefined ? { status: 'ok' } : { output: text }
}

function patchFromOutputText(raw: string): ToolPatch {
  const wrapped = parseWrapped(raw)
  if (wrapped) return withExit(wrapped.output, wrapped.exitCode)
  const { header, body } = splitHeader(raw)
  const match = /^(?:Exit code: |Process exited with code )(-?\d+)\s*$/m.exec(header)
  if (!match && header.split('\n').some((line) => RUNNING_LINE.test(line))) return { output: body, stillRunning: true }
  return withExit(body, match ? Number(match[1]) : undefined)
}

/** 0.58-era outputs: `{"output":"…","metadata":{"exit_code":0,"duration_seconds":0.1}}` in a string. */
function parseWrapped(raw: string): { output: string; exitCode?: number } | undefined {
  if (!raw.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(raw)
    if (!isObject(value) || typeof value.output !== 'string') return undefined
    const exitCode = isObject(value.metadata) ? value.metadata.exit_code : undefined
    return typeof exitCode === 'number' ? { output: value.output, exitCode } : { output: value.output }
  } catch {
    return undefined
  }
}

/** Unified exec's header line when it yielded while the command still ran (0.171.0). */
const RUNNING_LINE = /^Process running with session ID \S+$/

/**
 * Shell outputs start with a `Key: value` header (`Chunk ID`, `Wall time`, `Process exited with
 * code N` or `Process running with session ID N`, `Original token count`) and an `Output:` line; the exit code is read from the header
 * only, so a command that prints "Exit code: 1" cannot fake a failure.
 */
function splitHeader(raw: string): { header: string; body: string } {
  const marker = raw.indexOf('Output:\n')
  if (marker === -1) return { header: '', body: raw }
  const header = raw.slice(0, marker)
  const looksLikeHeader = header.split('\n').every((line) => line === '' || /^[A-Z][\w ]*?(?::| code) /.test(line) || RUNNING_LINE.test(line))
  return looksLikeHeader ? { header, body: raw.slice(marker + 'Output:\n'.length) } : { header: '', body: raw }
}

function withExit(output: string, exitCode: number | undefined): ToolPatch {
  if (exitCode === undefined) return { output }
  return { status: exitCode === 0 ? 'ok' : 'error', output }
}

/** `item_completed` TurnItems that describe a tool; `undefined` for other item types. */
export function patchFromTurnItem(item: Json): { callId: string; patch: ToolPatch } | undefined {
  const callId = stringField(item, 'id')
  if (callId === undefined) return undefined
  switch (item.type) {
    case 'CommandExecution': {
      const patch = commandPatch(stringField(item, 'status'), item.exit_code, stringField(item, 'aggregated_output'))
      return patch ? { callId, patch } : undefined
    }
    case 'McpToolCall':
    case 'FileChange': {
      const status = stringField(item, 'status')
      const error = isObject(item.error) ? stringField(item.error, 'message') : undefined
      if (status === undefined || status === 'in_progress' || status === 'inProgress') return undefined
      const failed = FAILED_STATUSES.has(status) || error !== undefined
      const output = error ?? stringField(item, 'stdout') ?? partsText(isObject(item.result) ? item.result.content : undefined)
      return { callId, patch: output === undefined ? { status: failed ? 'error' : 'ok' } : { status: failed ? 'error' : 'ok', output } }
    }
    default:
      return undefined
  }
}

/** `exec_command_end`, `patch_apply_end`, `mcp_tool_call_end`, `web_search_end` events. */
export function patchFromEndEvent(event: Json): { callId: string; patch: ToolPatch } | undefined {
  const callId = stringField(event, 'call_id')
  if (callId === undefined) return undefined
  switch (event.type) {
    case 'exec_command_end': {
      const output = stringField(event, 'aggregated_output') ?? stringField(event, 'formatted_output') ?? joinStreams(event)
      const patch = commandPatch(stringField(event, 'status') ?? 'completed', event.exit_code, output)
      return patch ? { callId, patch } : undefined
    }
    case 'patch_apply_end': {
      const status = stringField(event, 'status')
      const failed = event.success === false || (status !== undefined && FAILED_STATUSES.has(status))
      const output = joinStreams(event)
      return { callId, patch: output ? { status: failed ? 'error' : 'ok', output } : { status: failed ? 'error' : 'ok' } }
    }
    case 'mcp_tool_call_end': {
      const result = isObject(event.result) ? event.result : {}
      if ('Err' in result) return { callId, patch: { status: 'error', output: String(result.Err) } }
      const ok = isObject(result.Ok) ? result.Ok : {}
      const output = partsText(ok.content)
      const status = ok.isError === true ? 'error' : 'ok'
      return { callId, patch: output === undefined ? { status } : { status, output } }
    }
    case 'web_search_end':
      return { callId, patch: { status: 'ok' } }
    default:
      return undefined
  }
}

function commandPatch(status: string | undefined, exitCode: unknown, output: string | undefined): ToolPatch | undefined {
  if (status === undefined || status === 'in_progress' || status === 'inProgress') return undefined
  const failed = FAILED_STATUSES.has(status) || (typeof exitCode === 'number' && exitCode !== 0)
  return output === undefined ? { status: failed ? 'error' : 'ok' } : { status: failed ? 'error' : 'ok', output }
}

function joinStreams(event: Json): string | undefined {
  const parts = [stringField(event, 'stdout'), stringField(event, 'stderr')].filter((part): part is string => !!part)
  return parts.length > 0 ? parts.join('\n') : undefined
}

/** The text of structured content: a string, `{text}`, or an array of `{type, text}` parts. */
export function partsText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (isObject(value)) return stringField(value, 'text')
  if (!Array.isArray(value)) return undefined
  const texts = value.flatMap((part) => {
    if (typeof part === 'string') return [part]
    const text = isObject(part) ? stringField(part, 'text') : undefined
    return text === undefined ? [] : [text]
  })
  return texts.length > 0 ? texts.join('\n') : undefined
}

import { createRolloutFold } from '../../../src/agents/codex/rollout-fold.js'
import type { RolloutFoldOptions } from '../../../src/agents/codex/rollout-fold.js'
import type { AgentChat } from '../../../src/contract/agent-chat.js'

/**
 * Builders for synthetic rollout lines, shaped exactly like the recorded ones (fixtures in
 * test/fixtures/codex and the shared real rollouts): envelope lines for 2025 and current files,
 * bare objects for the legacy format.
 */
type Payload = Record<string, unknown>

let clock = Date.UTC(2026, 0, 5, 10, 0, 0)
const nextTimestamp = (): string => new Date((clock += 1000)).toISOString()

export const envelope = (type: string, payload: Payload): string =>
  JSON.stringify({ timestamp: nextTimestamp(), type, payload })

export const event = (payload: Payload): string => envelope('event_msg', payload)
export const responseItem = (payload: Payload): string => envelope('response_item', payload)

export const sessionMeta = (id = '01a229ba-571a-7273-b111-e6cbc1a7411b', cwd = '/repo'): string =>
  envelope('session_meta', { id, timestamp: '2026-01-05T10:00:00.000Z', cwd, originator: 'codex_exec', cli_version: '0.171.0', source: 'exec' })

export const taskStarted = (turnId: string): string => event({ type: 'task_started', turn_id: turnId, started_at: 1767607200 })
export const taskComplete = (turnId: string, extra: Payload = {}): string =>
  event({ type: 'task_complete', turn_id: turnId, last_agent_message: null, ...extra })
export const turnAborted = (turnId: string | undefined, reason?: string): string =>
  event({ type: 'turn_aborted', ...(turnId ? { turn_id: turnId } : {}), ...(reason ? { reason } : {}) })
export const errorEvent = (message: string, info?: unknown): string =>
  event({ type: 'error', message, ...(info === undefined ? {} : { codex_error_info: info }) })

export const userMessage = (message: string): string => event({ type: 'user_message', message, images: [] })
export const agentMessage = (message: string): string => event({ type: 'agent_message', message })
export const agentReasoning = (text: string): string => event({ type: 'agent_reasoning', text })

export const itemCompleted = (turnId: string, item: Payload): string =>
  event({ type: 'item_completed', thread_id: 'thread', turn_id: turnId, item, started_at_ms: 0, completed_at_ms: 0 })
export const userItem = (turnId: string, text: string): string =>
  itemCompleted(turnId, { type: 'UserMessage', id: `u-${text.length}`, content: [{ type: 'text', text, text_elements: [] }] })
export const agentItem = (turnId: string, id: string, text: string): string =>
  itemCompleted(turnId, { type: 'AgentMessage', id, content: [{ type: 'Text', text }] })
export const reasoningItem = (turnId: string, id: string, summary: string[]): string =>
  itemCompleted(turnId, { type: 'Reasoning', id, summary_text: summary, raw_content: [] })
export const commandItem = (turnId: string, callId: string, status: string, exitCode: number, output: string): string =>
  itemCompleted(turnId, { type: 'CommandExecution', id: callId, command: ['/bin/bash', '-lc', 'x'], status, aggregated_output: output, exit_code: exitCode })

export const message = (role: string, text: string, extra: Payload = {}): string =>
  responseItem({ type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }], ...extra })
export const reasoning = (summary: string[], id?: string): string =>
  responseItem({ type: 'reasoning', ...(id ? { id } : {}), summary: summary.map((text) => ({ type: 'summary_text', text })), content: null, encrypted_content: 'gAAAA-opaque' })
export const functionCall = (callId: string, name: string, args: unknown): string =>
  responseItem({ type: 'function_call', name, arguments: typeof args === 'string' ? args : JSON.stringify(args), call_id: callId })
export const functionOutput = (callId: string, output: unknown): string =>
  responseItem({ type: 'function_call_output', call_id: callId, output })
export const tokenCount = (info: Payload | null): string => event({ type: 'token_count', info, rate_limits: null })

/** Folds lines (strings are parsed like the tail parses them) and returns the chat. */
export function foldLines(lines: readonly (string | unknown)[], options: RolloutFoldOptions = {}): AgentChat {
  const fold = createRolloutFold(options)
  lines.forEach((line, index) => fold.push(typeof line === 'string' ? (JSON.parse(line) as unknown) : line, index + 1))
  return fold.snapshot({ offset: 0, lines: lines.length })
}

/** `kind:role:text` (or `tool:name:status`) per message, for compact assertions. */
export function outline(chat: AgentChat): string[] {
  return chat.messages.map((m) => (m.tool ? `${m.seq} tool:${m.tool.name}:${m.tool.status}` : `${m.seq} ${m.kind}:${m.role ?? ''}:${m.text ?? ''}`))
}

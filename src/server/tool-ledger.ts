import type { StreamChunk } from '../contract/stream.js'
import type { ToolPart } from './tool-parts.js'

/**
 * A turn's tool calls, as the wire shows them and the store keeps them: what the agent did (a
 * coding agent's commands), asked for (a model's tool call), or what the server's tool loop ran for
 * it (tool-loop.ts, whose results arrive as `tool_result` chunks like an agent's). Every call the wire opened is closed before the turn's end, never left `input-available`:
 * a call without a final result gets `tool-output-error` saying why (the turn ended first, or
 * nobody runs it). The record goes into the stored answer's `metadata.tools` (never `toolCalls`:
 * those are sent to the model on the next turn, and a provider refuses a call without its result),
 * with each call's place in the text, so GET restores the answer as it streamed.
 */

/** One tool call of a stored answer (`metadata.tools`). */
export interface StoredTool {
  readonly toolCallId: string
  readonly toolName: string
  readonly input: unknown
  /**
   * `approval-requested`: the server's tool loop paused on it (tool-approval.ts), the user's answer
   * pending; `output-denied`: the user denied it.
   */
  readonly state: 'output-available' | 'output-error' | 'approval-requested' | 'output-denied'
  /** The approval asked for this call, and once answered, the answer. */
  readonly approval?: ToolApproval
  readonly output?: unknown
  readonly errorText?: string
  /** Where in the answer's text the call came (UTF-16 units of `content` before it). */
  readonly at: number
  /** The input or output was over `MAX_STORED_TOOL_CHARS` of JSON: a cut string is kept instead. */
  readonly cut?: true
}

/** An approval the tool loop asked for (`approvalId` on the wire) and the user's answer. */
export interface ToolApproval {
  readonly id: string
  readonly approved?: boolean
  readonly reason?: string
}

/** The most JSON text of one input or output a stored answer keeps (the wire carries it whole). */
export const MAX_STORED_TOOL_CHARS = 16 * 1024

export interface ToolLedger {
  /** The wire parts for a chunk (empty: not a tool chunk the wire shows); undefined when it is no tool chunk. */
  observe: (chunk: StreamChunk, textLength: number) => ToolPart[] | undefined
  /** Closes every call still open with `tool-output-error` (`errorText`), for the wire and the record; a call awaiting approval stays so. */
  closeOpen: (errorText: string) => ToolPart[]
  /** Marks an open call as awaiting the user's approval: the `tool-approval-request` part. */
  requestApproval: (toolCallId: string, approvalId: string) => ToolPart[]
  /** What the stored answer keeps; undefined when the turn called no tool. */
  stored: () => StoredTool[] | undefined
}

interface Call {
  toolCallId: string
  toolName: string
  input: unknown
  at: number
  state: 'open' | StoredTool['state']
  approval?: ToolApproval
  output?: unknown
  errorText?: string
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/** A chunk's text as a result (the payload's, else the content). */
const resultText = (chunk: StreamChunk): string => chunk.toolCall?.result ?? chunk.content ?? ''

const failed = (chunk: StreamChunk): boolean => chunk.metadata?.isError === true || chunk.metadata?.toolStatus === 'error'

/**
 * `resumed`: the stored calls of an answer the turn continues (an approval answered): they are
 * not shown again; an answered approval's call is open again, for its result.
 */
export function createToolLedger(resumed: readonly StoredTool[] = []): ToolLedger {
  const calls = new Map<string, Call>()
  for (const tool of resumed) {
    const answered = tool.state === 'approval-requested' && tool.approval?.approved !== undefined
    calls.set(tool.toolCallId, {
      toolCallId: tool.toolCallId,
      toolName: tool.toolName,
      input: tool.input,
      at: tool.at,
      state: answered ? 'open' : tool.state,
      ...(tool.approval ? { approval: tool.approval } : {}),
      ...(tool.output === undefined ? {} : { output: tool.output }),
      ...(tool.errorText === undefined ? {} : { errorText: tool.errorText }),
    })
  }

  const open = (chunk: StreamChunk, textLength: number): { call: Call; parts: ToolPart[] } | undefined => {
    const payload = chunk.toolCall
    if (!payload || typeof payload.id !== 'string' || payload.id === '') return undefined
    const known = calls.get(payload.id)
    if (known) return { call: known, parts: [] }
    if (typeof payload.name !== 'string' || payload.name === '') return undefined
    const call: Call = { toolCallId: payload.id, toolName: payload.name, input: parsed(payload.args ?? ''), at: textLength, state: 'open' }
    calls.set(call.toolCallId, call)
    return { call, parts: [{ type: 'tool-input-available', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] }
  }

  const settle = (call: Call, chunk: StreamChunk): ToolPart[] => {
    if (call.state !== 'open') return [] // a result after the final one adds nothing
    const text = resultText(chunk)
    if (chunk.metadata?.denied === true) {
      call.state = 'output-denied'
      return [{ type: 'tool-output-denied', toolCallId: call.toolCallId }]
    }
    if (chunk.metadata?.toolStatus === 'running') {
      // a result that does not end the tool (a background command's launch): shown, the call stays open
      return [{ type: 'tool-output-available', toolCallId: call.toolCallId, output: parsed(text), preliminary: true }]
    }
    if (failed(chunk)) {
      call.state = 'output-error'
      call.errorText = text
      return [{ type: 'tool-output-error', toolCallId: call.toolCallId, errorText: text }]
    }
    call.state = 'output-available'
    call.output = parsed(text)
    return [{ type: 'tool-output-available', toolCallId: call.toolCallId, output: call.output }]
  }

  return {
    observe(chunk, textLength) {
      if (chunk.type !== 'tool_call' && chunk.type !== 'tool_result') return undefined
      const opened = open(chunk, textLength)
      if (!opened) return []
      // a tool_result carries the final result; so may a tool_call whose start was never seen
      const final = chunk.type === 'tool_result' || (chunk.toolCall?.result !== undefined && chunk.metadata?.toolStatus !== 'running')
      return final ? [...opened.parts, ...settle(opened.call, chunk)] : opened.parts
    },
    requestApproval(toolCallId, approvalId) {
      const call = calls.get(toolCallId)
      if (!call || call.state !== 'open') return []
      call.state = 'approval-requested'
      call.approval = { id: approvalId }
      return [{ type: 'tool-approval-request', approvalId, toolCallId }]
    },
    closeOpen(errorText) {
      const parts: ToolPart[] = []
      for (const call of calls.values()) {
        if (call.state !== 'open') continue
        call.state = 'output-error'
        call.errorText = errorText
        parts.push({ type: 'tool-output-error', toolCallId: call.toolCallId, errorText })
      }
      return parts
    },
    stored() {
      if (calls.size === 0) return undefined
      return [...calls.values()].map(storedOf)
    },
  }
}

function storedOf(call: Call): StoredTool {
  const input = bounded(call.input)
  const output = call.output === undefined ? undefined : bounded(call.output)
  const state = call.state === 'open' ? 'output-error' : call.state
  return {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: input.value,
    state,
    ...(output === undefined ? {} : { output: output.value }),
    ...(call.errorText === undefined ? {} : { errorText: cutText(call.errorText) }),
    ...(call.approval ? { approval: call.approval } : {}),
    at: call.at,
    ...(input.cut || output?.cut || (call.errorText?.length ?? 0) > MAX_STORED_TOOL_CHARS ? { cut: true as const } : {}),
  }
}

/** A value whose JSON is over the limit is kept as the start of that JSON, cut (a file a tool read, a long listing). */
function bounded(value: unknown): { value: unknown; cut: boolean } {
  const json = JSON.stringify(value) ?? 'null'
  return json.length <= MAX_STORED_TOOL_CHARS ? { value, cut: false } : { value: cutText(json), cut: true }
}

function cutText(text: string): string {
  if (text.length <= MAX_STORED_TOOL_CHARS) return text
  const last = text.charCodeAt(MAX_STORED_TOOL_CHARS - 1)
  return `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_STORED_TOOL_CHARS - 1 : MAX_STORED_TOOL_CHARS)}…`
}

const STORED_STATES: ReadonlySet<unknown> = new Set<StoredTool['state']>(['output-available', 'output-error', 'approval-requested', 'output-denied'])

/** The stored tools of an answer (`metadata.tools`), keeping only well-formed entries (the row may come from anywhere). */
export function storedToolsOf(metadata: Record<string, unknown> | undefined): StoredTool[] {
  const tools = metadata?.tools
  if (!Array.isArray(tools)) return []
  return tools.filter((tool): tool is StoredTool => {
    const t = tool as Partial<StoredTool> | null
    return typeof t === 'object' && t !== null && typeof t.toolCallId === 'string' && typeof t.toolName === 'string'
      && STORED_STATES.has(t.state) && typeof t.at === 'number' && Number.isInteger(t.at) && t.at >= 0
      && (t.state !== 'output-error' || typeof t.errorText === 'string')
      && (t.approval === undefined || (typeof t.approval === 'object' && t.approval !== null && typeof t.approval.id === 'string'))
      && ((t.state !== 'approval-requested' && t.state !== 'output-denied') || t.approval !== undefined)
  })
}

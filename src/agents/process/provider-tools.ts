import type { StreamChunk, StreamToolCallPayload } from '../../contract/stream.js'

/**
 * The lifecycle of tools an agent CLI runs itself, as chunks (docs/agents.md § Tools the agent
 * runs). Every started tool is visible from its start and ends in a stated final state, never in
 * silence:
 *
 * - `started` → one `tool_call` without `result`, `metadata: { providerExecuted: true,
 *   toolStatus: 'running' }`: the controller records it `running` and never executes it.
 * - `result` → one `tool_result` whose `toolCall` carries the result and whose
 *   `metadata.toolStatus` is `complete` / `error`, or `running` for a result that does not end the
 *   tool (a background command's launch). A tool whose start was never seen gets its `tool_call`
 *   first, carrying the result when it is final (the shape every AgentsKit controller records as
 *   provider-run).
 * - `unfinished` (the turn ended) → one `tool_result` per tool still open, `metadata.resultUnknown:
 *   true`, with the final `toolStatus` the agent itself will record for it.
 *
 * A tool id is started once and finished once: a repeated start, or a result after the final one,
 * adds nothing. Deterministic and pure apart from its own bookkeeping.
 */
export type ProviderToolStatus = 'running' | 'complete' | 'error'

export interface ProviderToolCall {
  id: string
  name: string
  /** The complete arguments as a JSON object text. */
  args: string
}

export interface UnfinishedTool extends ProviderToolCall {
  /** The last result reported while it ran (a background command's launch text), if any. */
  lastResult?: string
}

export interface ProviderTools {
  started: (call: ProviderToolCall, metadata?: Record<string, unknown>) => StreamChunk[]
  result: (call: ProviderToolCall, result: string, status: ProviderToolStatus, metadata?: Record<string, unknown>) => StreamChunk[]
  /** True while `id` was started (or reported running) and has no final result. */
  isOpen: (id: string) => boolean
  /** The tools still open, in start order. */
  open: () => UnfinishedTool[]
  /** Ends every open tool: `describe` says what is known of it (its final status and the text). */
  unfinished: (describe: (tool: UnfinishedTool) => { status: ProviderToolStatus; content: string; metadata?: Record<string, unknown> }) => StreamChunk[]
}

export function createProviderTools(executedBy: string): ProviderTools {
  const open = new Map<string, UnfinishedTool>()
  const finished = new Set<string>()
  const base = (metadata: Record<string, unknown> | undefined, toolStatus: ProviderToolStatus): Record<string, unknown> => ({
    ...metadata,
    executedBy,
    providerExecuted: true,
    toolStatus,
    isError: toolStatus === 'error',
  })

  function started(call: ProviderToolCall, metadata?: Record<string, unknown>): StreamChunk[] {
    if (open.has(call.id) || finished.has(call.id)) return []
    open.set(call.id, { ...call })
    return [{ type: 'tool_call', toolCall: { id: call.id, name: call.name, args: call.args }, metadata: base(metadata, 'running') }]
  }

  function result(call: ProviderToolCall, text: string, status: ProviderToolStatus, metadata?: Record<string, unknown>): StreamChunk[] {
    if (finished.has(call.id)) return []
    const chunks: StreamChunk[] = []
    const known = open.get(call.id)
    const payload: StreamToolCallPayload = { id: call.id, name: known?.name ?? call.name, args: known?.args ?? call.args, result: text }
    if (!known) {
      if (status === 'running') chunks.push(...started(call, metadata))
      else chunks.push({ type: 'tool_call', toolCall: payload, metadata: base(metadata, status) })
    }
    if (status === 'running') {
      const entry = open.get(call.id)
      if (entry) entry.lastResult = text
    } else {
      open.delete(call.id)
      finished.add(call.id)
    }
    chunks.push({ type: 'tool_result', content: text, toolCall: payload, metadata: base(metadata, status) })
    return chunks
  }

  return {
    started,
    result,
    isOpen: (id) => open.has(id),
    open: () => [...open.values()],
    unfinished(describe) {
      return [...open.values()].flatMap((tool) => {
        const { status, content, metadata } = describe(tool)
        const chunks = result(tool, content, status, { ...metadata, resultUnknown: true })
        // A final status of `running` (the agent keeps no later record of it) still ends it here.
        open.delete(tool.id)
        finished.add(tool.id)
        return chunks
      })
    },
  }
}

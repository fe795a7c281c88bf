import type { StreamChunk, TokenUsage } from '../../../contract/stream.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { isAgentId } from '../../runstate/agent-id.js'
import { arrayField, isRecord, numberField, recordField, stringField } from '../../process/json-value.js'
import type { JsonRecord } from '../../process/json-value.js'

/**
 * Maps `codex exec --json` events (`ThreadEvent`s) to AgentsKit `StreamChunk`s, one event at a
 * time, in order. Deterministic: the same events always give the same chunks.
 *
 * - `thread.started` → the thread id (kept for `codex exec resume`); no chunk.
 * - `item.completed`: `agent_message` → `text` (messages of one turn separated by a blank line);
 *   `reasoning` → `reasoning`; `command_execution` / `file_change` / `mcp_tool_call` / `web_search`
 *   → `tool_call` carrying its result, then `tool_result` (Codex runs its own tools; a call that
 *   arrives with its result is recorded as provider-run, so no tool loop follows); `todo_list`
 *   (started / updated / completed) → the latest list, in the `done` chunk's `metadata.todoList`.
 * - `error` *items* are warnings (e.g. unknown model metadata) and a top-level `error` event alone
 *   is a reconnect notice: neither fails the turn; both land in `metadata.warnings`.
 * - `turn.completed` → `usage` then `done`; `turn.failed` → one `error` chunk with its message.
 * - Unknown event and item types are ignored.
 */

export interface CodexStreamMapperOptions {
  /**
   * Item ids restart at `item_0` in every process, so tool call ids are made unique per turn as
   * `<thread id>:<turn>:<item id>`.
   */
  turn?: number
  /**
   * The thread's token totals after the previous turn. `turn.completed` reports running totals of
   * the thread, so this turn's usage is the difference; without a baseline the totals are reported
   * and `metadata.usageScope` says `thread`.
   */
  usageBaseline?: TokenUsage
  /** This turn resumes an existing thread (its totals include earlier turns). */
  resumed?: boolean
}

export interface CodexStreamMapper {
  map: (event: JsonRecord) => StreamChunk[]
  threadId: () => string | undefined
  finished: () => boolean
  /** The thread's running token totals from `turn.completed`, once seen. */
  threadUsage: () => TokenUsage | undefined
}

export function createCodexStreamMapper(options: CodexStreamMapperOptions = {}): CodexStreamMapper {
  let threadId: string | undefined
  let finished = false
  let textEmitted = false
  let todoList: { text: string; completed: boolean }[] | undefined
  let threadUsage: TokenUsage | undefined
  const warnings: string[] = []

  const callId = (itemId: string): string => `${threadId ?? 'codex'}:${options.turn ?? 1}:${itemId}`

  function toolChunks(item: JsonRecord, name: string, args: unknown, result: string, metadata: Record<string, unknown>): StreamChunk[] {
    const itemId = stringField(item, 'id') ?? 'item'
    const toolCall = { id: callId(itemId), name, args: typeof args === 'string' ? args : JSON.stringify(args ?? {}), result }
    const meta = { ...metadata, itemType: item.type, executedBy: 'codex' }
    return [
      { type: 'tool_call', toolCall, metadata: meta },
      { type: 'tool_result', content: result, toolCall, metadata: meta },
    ]
  }

  function mapCompletedItem(item: JsonRecord): StreamChunk[] {
    switch (item.type) {
      case 'agent_message': {
        const text = stringField(item, 'text') ?? ''
        if (text === '') return []
        const content = textEmitted ? `\n\n${text}` : text
        textEmitted = true
        return [{ type: 'text', content }]
      }
      case 'reasoning': {
        const text = stringField(item, 'text') ?? ''
        return text.trim() === '' ? [] : [{ type: 'reasoning', content: text }]
      }
      case 'command_execution': {
        const exitCode = numberField(item, 'exit_code')
        const status = stringField(item, 'status')
        const isError = status === 'failed' || status === 'declined' || (exitCode !== undefined && exitCode !== 0)
        return toolChunks(item, 'command_execution', { command: stringField(item, 'command') ?? '' }, stringField(item, 'aggregated_output') ?? '', {
          exitCode: exitCode ?? null,
          status,
          isError,
        })
      }
      case 'file_change': {
        const changes = (arrayField(item, 'changes') ?? []).filter(isRecord)
        const summary = changes.map((change) => `${stringField(change, 'kind') ?? 'update'} ${stringField(change, 'path') ?? ''}`).join('\n')
        const status = stringField(item, 'status')
        return toolChunks(item, 'file_change', { changes }, summary, { status, isError: status === 'failed' })
      }
      case 'mcp_tool_call': {
        const error = stringField(recordField(item, 'error'), 'message')
        const status = stringField(item, 'status')
        const name = `${stringField(item, 'server') ?? 'mcp'}.${stringField(item, 'tool') ?? 'tool'}`
        return toolChunks(item, name, item.arguments, error ?? mcpResultText(recordField(item, 'result')), {
          status,
          isError: error !== undefined || status === 'failed',
        })
      }
      case 'web_search': {
        const query = stringField(item, 'query') ?? ''
        return toolChunks(item, 'web_search', { query }, `Searched the web for: ${query}`, { isError: false })
      }
      case 'todo_list':
        todoList = todoItems(item)
        return []
      case 'error': {
        const message = stringField(item, 'message')
        if (message) warnings.push(message)
        return []
      }
      default:
        return []
    }
  }

  function mapTurnCompleted(event: JsonRecord): StreamChunk[] {
    finished = true
    const totals = tokenUsage(recordField(event, 'usage'))
    threadUsage = totals
    const chunks: StreamChunk[] = []
    const base = options.usageBaseline
    if (totals && base && totals.promptTokens >= base.promptTokens && totals.completionTokens >= base.completionTokens) {
      const promptTokens = totals.promptTokens - base.promptTokens
      const completionTokens = totals.completionTokens - base.completionTokens
      chunks.push({ type: 'usage', usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens } })
    } else if (totals) {
      // A new thread's totals are this turn's; a resumed thread without a baseline can only say the total.
      chunks.push(options.resumed ? { type: 'usage', usage: totals, metadata: { usageScope: 'thread' } } : { type: 'usage', usage: totals })
    }
    chunks.push({
      type: 'done',
      metadata: { agent: 'codex', threadId, warnings: [...warnings], ...(todoList ? { todoList } : {}), ...(totals ? { threadUsage: totals } : {}) },
    })
    return chunks
  }

  function mapTurnFailed(event: JsonRecord): StreamChunk[] {
    finished = true
    const raw = stringField(recordField(event, 'error'), 'message') ?? 'The turn failed.'
    return [
      agentErrorChunk({
        code: 'CODEX_TURN_FAILED',
        message: `Codex turn failed: ${readableError(raw)}`,
        metadata: { agent: 'codex', threadId, warnings: [...warnings], raw },
      }),
    ]
  }

  return {
    map(event) {
      if (finished) return []
      switch (event.type) {
        case 'thread.started': {
          // The id becomes a file lookup and a `resume` argument: only a UUID is taken (issue 15 item 10).
          const id = stringField(event, 'thread_id')
          if (id !== undefined && isAgentId(id)) threadId = id
          else if (id !== undefined) warnings.push(`Ignored a thread_id that is not a UUID: ${JSON.stringify(id.slice(0, 80))}; this thread cannot be resumed or tracked.`)
          return []
        }
        case 'item.started':
        case 'item.updated': {
          const item = recordField(event, 'item')
          if (item?.type === 'todo_list') todoList = todoItems(item)
          return []
        }
        case 'item.completed': {
          const item = recordField(event, 'item')
          return item ? mapCompletedItem(item) : []
        }
        case 'error': {
          const message = stringField(event, 'message')
          if (message) warnings.push(message)
          return []
        }
        case 'turn.completed':
          return mapTurnCompleted(event)
        case 'turn.failed':
          return mapTurnFailed(event)
        default:
          return []
      }
    },
    threadId: () => threadId,
    finished: () => finished,
    threadUsage: () => threadUsage,
  }
}

function todoItems(item: JsonRecord): { text: string; completed: boolean }[] {
  return (arrayField(item, 'items') ?? []).filter(isRecord).map((entry) => ({ text: stringField(entry, 'text') ?? '', completed: entry.completed === true }))
}

function mcpResultText(result: JsonRecord | undefined): string {
  if (!result) return ''
  const text = (arrayField(result, 'content') ?? [])
    .map((part) => (isRecord(part) && part.type === 'text' ? (stringField(part, 'text') ?? '') : ''))
    .filter((part) => part !== '')
    .join('\n')
  if (text !== '') return text
  return result.structured_content === undefined ? '' : JSON.stringify(result.structured_content)
}

/** Codex passes the provider's error body through as the message; show its inner `error.message`. */
export function readableError(message: string): string {
  try {
    const parsed: unknown = JSON.parse(message)
    const inner = stringField(recordField(parsed, 'error'), 'message') ?? stringField(parsed, 'message')
    return inner ?? message
  } catch {
    return message
  }
}

/** `input_tokens` already includes cached input (OpenAI usage); reasoning is part of `output_tokens`. */
function tokenUsage(usage: JsonRecord | undefined): TokenUsage | undefined {
  if (!usage) return undefined
  const promptTokens = numberField(usage, 'input_tokens') ?? 0
  const completionTokens = numberField(usage, 'output_tokens') ?? 0
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens }
}

/** Maps a whole recorded stream (a capture file's events) at once. */
export function mapCodexStream(events: readonly JsonRecord[], options: CodexStreamMapperOptions = {}): StreamChunk[] {
  const mapper = createCodexStreamMapper(options)
  return events.flatMap((event) => mapper.map(event))
}

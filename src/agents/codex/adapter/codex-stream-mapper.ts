import type { StreamChunk, TokenUsage } from '../../../contract/stream.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { createProviderTools } from '../../process/provider-tools.js'
import { isAgentId } from '../../runstate/agent-id.js'
import { arrayField, isRecord, numberField, recordField, stringField } from '../../process/json-value.js'
import type { JsonRecord } from '../../process/json-value.js'

/**
 * Maps `codex exec --json` events (`ThreadEvent`s) to AgentsKit `StreamChunk`s, one event at a
 * time, in order. Deterministic: the same events always give the same chunks.
 *
 * - `thread.started` → the thread id (kept for `codex exec resume`); no chunk.
 * - `item.completed`: `agent_message` → `text` (messages of one turn separated by a blank line);
 *   `reasoning` → `reasoning`; `todo_list` (started / updated / completed) → the latest list, in the
 *   `done` chunk's `metadata.todoList`.
 * - Tools (`command_execution` / `file_change` / `mcp_tool_call` / `web_search`; Codex runs them
 *   itself), through `createProviderTools`: `item.started` → a running `tool_call`; its
 *   `item.completed` → the `tool_result` (an item completed without a start: the `tool_call`
 *   carrying its result, then the `tool_result`). A tool still open at `turn.completed` /
 *   `turn.failed` (a command that outlived the model's step: Codex yields after its wait and the
 *   model goes on) ends with a `tool_result` saying its result is unknown, before the terminal chunk.
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

/** A tool item's call and result, before it becomes chunks. */
interface ToolItem {
  id: string
  name: string
  args: unknown
  result: string
  isError: boolean
  metadata: Record<string, unknown>
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
  const tools = createProviderTools('codex')

  const callId = (itemId: string): string => `${threadId ?? 'codex'}:${options.turn ?? 1}:${itemId}`

  /** A tool item (`command_execution`, `file_change`, `mcp_tool_call`, `web_search`) as a call; else undefined. */
  function toolOf(item: JsonRecord): ToolItem | undefined {
    const id = callId(stringField(item, 'id') ?? 'item')
    const status = stringField(item, 'status')
    switch (item.type) {
      case 'command_execution': {
        const exitCode = numberField(item, 'exit_code')
        const isError = status === 'failed' || status === 'declined' || (exitCode !== undefined && exitCode !== 0)
        return { id, name: 'command_execution', args: { command: stringField(item, 'command') ?? '' }, result: stringField(item, 'aggregated_output') ?? '', isError, metadata: { exitCode: exitCode ?? null, status } }
      }
      case 'file_change': {
        const changes = (arrayField(item, 'changes') ?? []).filter(isRecord)
        const summary = changes.map((change) => `${stringField(change, 'kind') ?? 'update'} ${stringField(change, 'path') ?? ''}`).join('\n')
        return { id, name: 'file_change', args: { changes }, result: summary, isError: status === 'failed', metadata: { status } }
      }
      case 'mcp_tool_call': {
        const error = stringField(recordField(item, 'error'), 'message')
        const name = `${stringField(item, 'server') ?? 'mcp'}.${stringField(item, 'tool') ?? 'tool'}`
        return { id, name, args: item.arguments, result: error ?? mcpResultText(recordField(item, 'result')), isError: error !== undefined || status === 'failed', metadata: { status } }
      }
      case 'web_search': {
        const query = stringField(item, 'query') ?? ''
        return { id, name: 'web_search', args: { query }, result: `Searched the web for: ${query}`, isError: false, metadata: {} }
      }
      default:
        return undefined
    }
  }

  const callOf = (tool: ToolItem, item: JsonRecord) => ({
    call: { id: tool.id, name: tool.name, args: typeof tool.args === 'string' ? tool.args : JSON.stringify(tool.args ?? {}) },
    meta: { ...tool.metadata, itemType: item.type },
  })

  function mapStartedItem(item: JsonRecord): StreamChunk[] {
    if (item.type === 'todo_list') todoList = todoItems(item)
    const tool = toolOf(item)
    if (!tool) return []
    const { call, meta } = callOf(tool, item)
    return tools.started(call, { ...meta, exitCode: null })
  }

  /**
   * The tools that started and never completed: `codex exec` stops what it started when it exits
   * (0.171.0 records the command `failed`, exit -1, in the rollout), so each ends `error` with its
   * result unknown, as the rollout reader will show it.
   */
  function unfinishedTools(): StreamChunk[] {
    return tools.unfinished((tool) => ({
      status: 'error',
      content: `${tool.name === 'command_execution' ? 'The command' : 'The tool'} was still running when the turn ended; \`codex exec\` stops what it started when it exits, so the result is unknown.`,
      metadata: { status: 'unfinished', ...(tool.name === 'command_execution' ? { exitCode: null } : {}) },
    }))
  }

  function mapCompletedItem(item: JsonRecord): StreamChunk[] {
    const tool = toolOf(item)
    if (tool) {
      const { call, meta } = callOf(tool, item)
      return tools.result(call, tool.result, tool.isError ? 'error' : 'complete', meta)
    }
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
    const chunks: StreamChunk[] = unfinishedTools()
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
      ...unfinishedTools(),
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
          return item ? mapStartedItem(item) : []
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

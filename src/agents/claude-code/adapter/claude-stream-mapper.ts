import type { StreamChunk, TokenUsage } from '../../../contract/stream.js'
import { agentErrorChunk } from '../../process/agent-error-chunk.js'
import { createProviderTools } from '../../process/provider-tools.js'
import { DIALOG_TOOLS } from '../dialog-mapping.js'
import { isAgentId } from '../../runstate/agent-id.js'
import { arrayField, isRecord, numberField, recordField, stringField } from '../../process/json-value.js'
import type { JsonRecord } from '../../process/json-value.js'

/**
 * Maps Claude Code's `--output-format stream-json` events to AgentsKit `StreamChunk`s, one event
 * at a time, in order. Deterministic: the same events always give the same chunks.
 *
 * - `stream_event` text / thinking deltas (`--include-partial-messages`) → `text` / `reasoning`
 *   as they arrive. The complete `assistant` frame of a block that was streamed only adds what the
 *   deltas missed, so the final text is never counted twice; without partials the frame's blocks
 *   are the text.
 * - Tools (Claude Code runs its own; `createProviderTools`): a `tool_use` block → a running
 *   `tool_call` (complete args, A5) when its frame arrives; its `tool_result` → the `tool_result`
 *   (`metadata.isError`). A background Bash (`run_in_background`: the result carries
 *   `backgroundTaskId`) stays running after its launch result until its `task_notification`; a tool
 *   still open at `result` ends with a `tool_result` saying it was still running and its result is
 *   unknown (`claude -p` stops background commands when it exits; the transcript keeps no record of
 *   that, so the reader shows it running too). Dialog tools (AskUserQuestion, ExitPlanMode) show as
 *   dialogs: their `tool_call` comes with the answer, carrying it.
 * - `result` → `usage` then `done`; with `is_error` or an `error_*` subtype → one `error` chunk
 *   carrying the message (the synthetic "API Error: …" assistant frame before it is not text).
 * - `system`/`init` gives the session id used to resume. Frames of sub-agents
 *   (`parent_tool_use_id` set) stay inside their Task tool; unknown types are ignored.
 */

export interface ClaudeStreamMapper {
  map: (event: JsonRecord) => StreamChunk[]
  /** The session id from `system`/`init` (or any later event), once seen. */
  sessionId: () => string | undefined
  /** True once a `result` event was mapped. */
  finished: () => boolean
}

type BlockKind = 'text' | 'thinking'

export function createClaudeStreamMapper(): ClaudeStreamMapper {
  let sessionId: string | undefined
  let finished = false
  let currentMessageId: string | undefined
  let textEmitted = false
  /** Streamed blocks by `messageId:index`, in arrival order; `confirmed` once their frame arrived. */
  const blocks = new Map<string, { messageId: string; index: number; kind: BlockKind; streamed: string; confirmed: boolean }>()
  const tools = new Map<string, { name: string; args: string }>()
  const provider = createProviderTools('claude-code')
  /** Background task id → its tool_use id. */
  const background = new Map<string, string>()

  const callOf = (id: string) => ({ id, name: tools.get(id)?.name ?? 'unknown', args: tools.get(id)?.args ?? '{}' })

  function unfinished(): StreamChunk[] {
    return provider.unfinished((tool) => ({
      status: 'running',
      content: `${tool.lastResult === undefined ? '' : `${tool.lastResult}\n\n`}Still running when the turn ended; \`claude -p\` stops background commands when it exits, so the result is unknown.`,
      metadata: { status: 'unfinished' },
    }))
  }

  function text(content: string, newBlock: boolean): StreamChunk[] {
    if (content === '') return []
    const separated = newBlock && textEmitted ? `\n\n${content}` : content
    textEmitted = true
    return [{ type: 'text', content: separated }]
  }

  function mapStreamEvent(event: JsonRecord): StreamChunk[] {
    switch (event.type) {
      case 'message_start':
        currentMessageId = stringField(recordField(event, 'message'), 'id')
        return []
      case 'content_block_start': {
        const index = numberField(event, 'index')
        const kind = stringField(recordField(event, 'content_block'), 'type')
        if (currentMessageId === undefined || index === undefined || (kind !== 'text' && kind !== 'thinking')) return []
        blocks.set(`${currentMessageId}:${index}`, { messageId: currentMessageId, index, kind, streamed: '', confirmed: false })
        return []
      }
      case 'content_block_delta': {
        const block = blocks.get(`${currentMessageId}:${numberField(event, 'index')}`)
        const delta = recordField(event, 'delta')
        if (!block || block.confirmed || !delta) return []
        if (block.kind === 'text' && delta.type === 'text_delta') {
          const piece = stringField(delta, 'text') ?? ''
          const first = block.streamed === ''
          block.streamed += piece
          return text(piece, first)
        }
        if (block.kind === 'thinking' && delta.type === 'thinking_delta') {
          const piece = stringField(delta, 'thinking') ?? ''
          block.streamed += piece
          return piece === '' ? [] : [{ type: 'reasoning', content: piece }]
        }
        return []
      }
      default:
        return []
    }
  }

  /** The first streamed, unconfirmed block of this message and kind: the one this frame completes. */
  function claimStreamed(messageId: string | undefined, kind: BlockKind): string {
    if (messageId === undefined) return ''
    for (const block of blocks.values()) {
      if (block.messageId === messageId && block.kind === kind && !block.confirmed) {
        block.confirmed = true
        return block.streamed
      }
    }
    return ''
  }

  function remainder(full: string, streamed: string): string {
    if (streamed === '') return full
    return full.startsWith(streamed) ? full.slice(streamed.length) : ''
  }

  function mapAssistant(event: JsonRecord): StreamChunk[] {
    // A synthetic frame ("API Error: 400 …", `error` set): the `result` that follows carries it.
    if (event.error !== undefined && event.error !== null) return []
    const message = recordField(event, 'message')
    const messageId = stringField(message, 'id')
    const chunks: StreamChunk[] = []
    for (const block of arrayField(message, 'content') ?? []) {
      if (!isRecord(block)) continue
      if (block.type === 'text') {
        const full = stringField(block, 'text') ?? ''
        const streamed = claimStreamed(messageId, 'text')
        chunks.push(...text(remainder(full, streamed), streamed === ''))
      } else if (block.type === 'thinking') {
        const full = stringField(block, 'thinking') ?? ''
        const rest = remainder(full, claimStreamed(messageId, 'thinking'))
        if (rest !== '') chunks.push({ type: 'reasoning', content: rest })
      } else if (block.type === 'tool_use') {
        const id = stringField(block, 'id')
        const name = stringField(block, 'name')
        if (id === undefined || name === undefined) continue
        tools.set(id, { name, args: JSON.stringify(isRecord(block.input) ? block.input : {}) })
        if (!DIALOG_TOOLS.has(name)) chunks.push(...provider.started(callOf(id)))
      }
    }
    return chunks
  }

  function mapUser(event: JsonRecord): StreamChunk[] {
    if (event.isReplay === true) return []
    const chunks: StreamChunk[] = []
    const results = (arrayField(recordField(event, 'message'), 'content') ?? []).filter((block): block is JsonRecord => isRecord(block) && block.type === 'tool_result')
    // `tool_use_result` describes the event's result: only attributable when there is one.
    const taskId = results.length === 1 ? stringField(recordField(event, 'tool_use_result'), 'backgroundTaskId') : undefined
    for (const block of results) {
      const id = stringField(block, 'tool_use_id')
      if (id === undefined) continue
      const isError = block.is_error === true
      const launched = !isError && taskId !== undefined && taskId !== ''
      if (launched) background.set(taskId, id)
      chunks.push(...provider.result(callOf(id), toolResultText(block.content), isError ? 'error' : launched ? 'running' : 'complete', launched ? { background: true, taskId } : {}))
    }
    return chunks
  }

  /** A background command's `task_notification`: how it ended (`completed`, `failed`, `killed`, `stopped`). */
  function mapTaskNotification(event: JsonRecord): StreamChunk[] {
    const taskId = stringField(event, 'task_id')
    const id = stringField(event, 'tool_use_id') ?? (taskId === undefined ? undefined : background.get(taskId))
    const status = stringField(event, 'status')
    if (id === undefined || status === undefined || !provider.isOpen(id)) return []
    const summary = stringField(event, 'summary')
    const content = `The background command ${status === 'completed' ? 'completed' : `ended: ${status}`}${summary ? ` (${summary})` : ''}.`
    return provider.result(callOf(id), content, status === 'completed' ? 'complete' : 'error', { background: true, taskId, taskStatus: status })
  }

  function mapResult(event: JsonRecord): StreamChunk[] {
    finished = true
    const subtype = stringField(event, 'subtype') ?? 'unknown'
    const resultText = stringField(event, 'result') ?? ''
    const details = {
      agent: 'claude-code',
      subtype,
      sessionId,
      terminalReason: stringField(event, 'terminal_reason'),
      stopReason: stringField(event, 'stop_reason'),
    }
    if (event.is_error === true || subtype !== 'success') {
      const errors = (arrayField(event, 'errors') ?? []).filter((item): item is string => typeof item === 'string')
      const status = numberField(event, 'api_error_status')
      const message = resultText || errors.join('; ') || `Claude Code ended the turn with "${subtype}".`
      return [
        ...unfinished(),
        agentErrorChunk({
          code: subtype === 'success' ? 'CLAUDE_CODE_API_ERROR' : `CLAUDE_CODE_${subtype.toUpperCase()}`,
          message,
          metadata: { ...details, ...(status !== undefined ? { apiErrorStatus: status } : {}) },
        }),
      ]
    }
    const chunks: StreamChunk[] = []
    // No text came through frames or deltas (an unusual CLI build): the result still carries it.
    if (!textEmitted) chunks.push(...text(resultText, true))
    chunks.push(...unfinished())
    const usage = tokenUsage(recordField(event, 'usage'))
    if (usage) chunks.push({ type: 'usage', usage })
    chunks.push({
      type: 'done',
      metadata: {
        ...details,
        costUsd: numberField(event, 'total_cost_usd'),
        durationMs: numberField(event, 'duration_ms'),
        numTurns: numberField(event, 'num_turns'),
      },
    })
    return chunks
  }

  return {
    map(event) {
      // The id becomes a transcript path and a `--resume` value: only a UUID is taken (issue 15 item 10).
      const id = stringField(event, 'session_id')
      if (id !== undefined && isAgentId(id)) sessionId = id
      if (finished) return []
      // Sub-agent traffic belongs to its Task tool call, not to this chat's text.
      const parent = event.parent_tool_use_id
      if (parent !== undefined && parent !== null && event.type !== 'result') return []
      switch (event.type) {
        case 'stream_event':
          return isRecord(event.event) ? mapStreamEvent(event.event) : []
        case 'assistant':
          return mapAssistant(event)
        case 'user':
          return mapUser(event)
        case 'system':
          return event.subtype === 'task_notification' ? mapTaskNotification(event) : []
        case 'result':
          return mapResult(event)
        default:
          return []
      }
    },
    sessionId: () => sessionId,
    finished: () => finished,
  }
}

/** A tool_result `content`: a string, or blocks whose text parts are joined. */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part) => (isRecord(part) && part.type === 'text' ? (stringField(part, 'text') ?? '') : ''))
    .filter((part) => part !== '')
    .join('\n')
}

/** Prompt tokens count what the model read: fresh input plus cache writes and cache reads. */
function tokenUsage(usage: JsonRecord | undefined): TokenUsage | undefined {
  if (!usage) return undefined
  const promptTokens =
    (numberField(usage, 'input_tokens') ?? 0) +
    (numberField(usage, 'cache_creation_input_tokens') ?? 0) +
    (numberField(usage, 'cache_read_input_tokens') ?? 0)
  const completionTokens = numberField(usage, 'output_tokens') ?? 0
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens }
}

/** Maps a whole recorded stream (a capture file's events) at once. */
export function mapClaudeStream(events: readonly JsonRecord[]): StreamChunk[] {
  const mapper = createClaudeStreamMapper()
  return events.flatMap((event) => mapper.map(event))
}

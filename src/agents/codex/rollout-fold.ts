import type { AgentChat, AgentMessage, AgentUsage } from '../../contract/agent-chat.js'
import { capDepth, MAX_VALUE_DEPTH } from '../runstate/cap-depth.js'
import { isInjectedContext } from './injected-context.js'
import { MessageLog } from './message-log.js'
import { classifyRolloutLine, isObject, stringField } from './rollout-line.js'
import type { Json } from './rollout-line.js'
import { deriveRolloutState } from './rollout-state.js'
import { errorKind, failedStatus, parseArguments, readableErrorMessage, stringArray, summaryTexts } from './payload-fields.js'
import { usageFrom } from './token-usage.js'
import { applyToolPatch, partsText, patchFromEndEvent, patchFromOutput, patchFromTurnItem } from './tool-outcome.js'
import type { ToolPatch } from './tool-outcome.js'
import { TurnLifecycle, errorAffectsTurn } from './turn-lifecycle.js'

/**
 * The rollout fold: one pass over the lines of a rollout, in file order, for every generation.
 *
 * Prose comes from events (`user_message` / `agent_message`, or `item_completed` UserMessage /
 * AgentMessage in current files); envelope `response_item` messages duplicate them and carry the
 * harness's injected context, so they are skipped. Only legacy bare files take prose from their
 * message items, minus injected context and developer messages. Thinking comes from reasoning
 * summaries (never empty ones, never encrypted content), deduplicated by item id. Tool chips come
 * from call items and are back-patched by `call_id`.
 *
 * The fold is incremental and deterministic: pushing the lines of a file one by one, in any number
 * of sittings, and taking a snapshot gives exactly what one pass over the same lines gives.
 */
export interface RolloutFold {
  /** Folds one parsed JSONL value (a line of the file). Never throws. */
  push: (value: unknown, line: number) => void
  /** Marks, in file order, a line that could not be read (over the line cap): a system message; no state moves. */
  placeholder: (text: string) => void
  /** The chat so far; `cursor` is the caller's (it knows the bytes). Does not change the fold. */
  snapshot: (cursor: AgentChat['cursor'], extraWarnings?: readonly string[]) => AgentChat
}

export interface RolloutFoldOptions {
  /** The id from the file name, used when no `session_meta` names one. */
  fileSessionId?: string
  /** Tool outputs longer than this are cut, saying how much was cut (default 4096, as the Claude reader). */
  maxToolOutputChars?: number
  /** Prefix of warnings (the file path), as the shared tail's own warnings have. */
  source?: string
}

type ProseSource = 'event' | 'item' | 'legacy'

const MAX_DETAILED_WARNINGS = 20

export function createRolloutFold(options: RolloutFoldOptions = {}): RolloutFold {
  const log = new MessageLog()
  const turns = new TurnLifecycle()
  const reasoningIds = new Set<string>()
  const earlyPatches = new Map<string, ToolPatch[]>()
  const lastProse = new Map<'user' | 'assistant', { text: string; source: ProseSource; seq: number }>()
  const warnings: string[] = []
  let skipped = 0
  let sessionId: string | undefined
  let usage: AgentUsage | undefined
  const maxOutput = options.maxToolOutputChars ?? 4096
  const prefix = options.source === undefined ? '' : `${options.source}: `
  /** The line being folded, for warnings raised deep in it. */
  let currentLine = 0

  function warn(message: string): void {
    skipped += 1
    if (warnings.length < MAX_DETAILED_WARNINGS) warnings.push(message)
  }

  function addProse(role: 'user' | 'assistant', text: string, source: ProseSource, at: string | undefined): void {
    if (text.trim() === '') return
    // Some releases write a prompt (or answer) both as an event and as a TurnItem: keep one.
    const previous = lastProse.get(role)
    const turn = turns.last
    if (previous && previous.text === text && previous.source !== source && (!turn || previous.seq >= turn.firstSeq)) return
    if (role === 'user') turns.prompt(log.nextSeq)
    else turns.activity()
    const stored = log.append(withAt({ kind: 'text', role, text }, at))
    lastProse.set(role, { text, source, seq: stored.seq })
  }

  function addThinking(id: string | undefined, summaries: string[], at: string | undefined): void {
    turns.activity()
    if (id !== undefined) {
      if (reasoningIds.has(id)) return
      reasoningIds.add(id)
    }
    const text = summaries.map((summary) => summary.trim()).filter((summary) => summary !== '').join('\n')
    if (text !== '') log.append(withAt({ kind: 'thinking', role: 'assistant', text }, at))
  }

  function addTool(callId: string, name: string, input: unknown, at: string | undefined, status?: ToolPatch['status']): void {
    turns.activity()
    if (log.hasTool(callId)) return
    const capped = capDepth(input)
    if (capped.elided) warn(`${prefix}line ${currentLine}: the input of tool call ${callId} is nested deeper than ${MAX_VALUE_DEPTH} levels; the deeper part is elided.`)
    log.append(withAt({ kind: 'tool', role: 'assistant', tool: { id: callId, name, input: capped.value, status: 'running' } }, at))
    const pending = earlyPatches.get(callId) ?? []
    earlyPatches.delete(callId)
    if (status) pending.unshift({ status })
    for (const patch of pending) patchTool(callId, patch)
  }

  function patchTool(callId: string, raw: ToolPatch): void {
    const patch = raw.output !== undefined && raw.output.length > maxOutput ? { ...raw, output: cut(raw.output, maxOutput) } : raw
    if (log.updateTool(callId, (tool) => applyToolPatch(tool, patch))) return
    // A result written before its call (or a call outside the window read): keep it for later.
    const pending = earlyPatches.get(callId) ?? []
    pending.push(patch)
    earlyPatches.set(callId, pending)
  }

  function addLifecycle(text: string, at: string | undefined): void {
    log.append(withAt({ kind: 'lifecycle', role: 'system', text }, at))
  }

  function onResponseItem(item: Json, at: string | undefined, bare: boolean): void {
    const callId = stringField(item, 'call_id')
    switch (item.type) {
      case 'message': {
        if (!bare) return
        const role = item.role
        const text = partsText(item.content)
        if (text === undefined) return
        if (role === 'assistant') addProse('assistant', text, 'legacy', at)
        else if (role === 'user' && !isInjectedContext(text)) addProse('user', text, 'legacy', at)
        return
      }
      case 'reasoning':
        addThinking(stringField(item, 'id'), summaryTexts(item.summary), at)
        return
      case 'function_call':
        if (callId) addTool(callId, stringField(item, 'name') ?? 'function', parseArguments(item.arguments), at)
        return
      case 'custom_tool_call':
        if (callId) addTool(callId, stringField(item, 'name') ?? 'custom_tool', item.input ?? null, at, failedStatus(item))
        return
      case 'tool_search_call':
        if (callId) addTool(callId, 'tool_search', item.arguments ?? null, at)
        return
      case 'local_shell_call': {
        const id = callId ?? stringField(item, 'id')
        if (id) addTool(id, 'local_shell', item.action ?? null, at, failedStatus(item))
        return
      }
      case 'web_search_call':
      case 'image_generation_call': {
        const id = callId ?? stringField(item, 'id')
        if (!id) return
        const name = item.type === 'web_search_call' ? 'web_search' : 'image_generation'
        addTool(id, name, item.action ?? null, at)
        const status = stringField(item, 'status')
        if (status && status !== 'in_progress') patchTool(id, { status: failedStatus(item) ?? 'ok' })
        return
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'tool_search_output':
        if (callId) patchTool(callId, patchFromOutput(item))
        return
      default:
        return // ghost_snapshot, compaction, inter-agent messages: no chat content
    }
  }

  function onEvent(event: Json, at: string | undefined): void {
    switch (event.type) {
      case 'task_started':
      case 'turn_started':
        turns.start(stringField(event, 'turn_id'), log.nextSeq)
        return
      case 'task_complete':
      case 'turn_complete': {
        const error = isObject(event.error) ? event.error : undefined
        const failure = error ? { message: readableErrorMessage(stringField(error, 'message') ?? 'The turn failed.'), kind: errorKind(error.codex_error_info) } : undefined
        const from = turns.open?.firstSeq ?? log.nextSeq
        turns.complete(stringField(event, 'turn_id'), failure, log.nextSeq)
        // Builds that persist the `error` event also repeat it in `task_complete.error`: say it once.
        const line = failure ? `Error: ${failure.message}` : undefined
        if (line && !log.since(from).some((message) => message.kind === 'lifecycle' && message.text === line)) addLifecycle(line, at)
        return
      }
      case 'turn_aborted': {
        const reason = stringField(event, 'reason') ?? 'aborted'
        const turn = turns.abort(stringField(event, 'turn_id'), reason, log.nextSeq)
        if (!turn) return
        log.updateRunningTools(turn.firstSeq, (tool) => applyToolPatch(tool, { status: 'error' }))
        addLifecycle(reason, at)
        return
      }
      case 'error': {
        const message = readableErrorMessage(stringField(event, 'message') ?? 'Unknown error')
        const kind = errorKind(event.codex_error_info)
        addLifecycle(`Error: ${message}`, at)
        if (errorAffectsTurn(kind)) turns.error(message, kind, log.nextSeq)
        return
      }
      case 'thread_rolled_back': {
        const count = typeof event.num_turns === 'number' ? event.num_turns : 0
        const from = turns.rollback(count)
        if (from !== undefined) log.dropFrom(from)
        lastProse.clear()
        addLifecycle(`Rolled back ${count} turn${count === 1 ? '' : 's'}`, at)
        return
      }
      case 'user_message':
        addProse('user', stringField(event, 'message') ?? '', 'event', at)
        return
      case 'agent_message':
        addProse('assistant', stringField(event, 'message') ?? '', 'event', at)
        return
      case 'item_completed':
        if (isObject(event.item)) onTurnItem(event.item, at)
        return
      case 'token_count':
        if (isObject(event.info)) takeUsage(event.info.total_token_usage)
        return
      default: {
        const ended = patchFromEndEvent(event)
        if (ended) patchTool(ended.callId, ended.patch)
        return
      }
    }
  }

  function onTurnItem(item: Json, at: string | undefined): void {
    switch (item.type) {
      case 'UserMessage':
        addProse('user', partsText(item.content) ?? '', 'item', at)
        return
      case 'AgentMessage':
        addProse('assistant', partsText(item.content) ?? '', 'item', at)
        return
      case 'Reasoning':
        addThinking(stringField(item, 'id'), stringArray(item.summary_text), at)
        return
      default: {
        const tool = patchFromTurnItem(item)
        if (tool) patchTool(tool.callId, tool.patch)
      }
    }
  }

  /** A usage reading replaces the last one; an invalid one is left out, with a warning. */
  function takeUsage(raw: unknown): void {
    const next = usageFrom(raw)
    if (next === undefined) return
    if ('invalid' in next) warn(`${prefix}line ${currentLine}: token usage ${next.invalid}, not a non-negative integer; this reading is left out.`)
    else usage = next
  }

  function push(value: unknown, line: number): void {
    currentLine = line
    const record = classifyRolloutLine(value)
    switch (record.kind) {
      case 'invalid':
        warn(`${prefix}line ${line}: ${record.reason}; skipped.`)
        return
      case 'session_meta':
        sessionId ??= stringField(record.meta, 'id')
        return
      case 'response_item':
        onResponseItem(record.item, record.at, record.bare)
        return
      case 'event_msg':
        onEvent(record.event, record.at)
        return
      case 'compacted':
        addLifecycle('Context compacted', record.at)
        return
      case 'token_usage_record':
        takeUsage(record.record.thread_token_usage)
        return
      case 'other':
        return
    }
  }

  function snapshot(cursor: AgentChat['cursor'], extraWarnings: readonly string[] = []): AgentChat {
    const derived = deriveRolloutState(turns.last, log.messages)
    const id = sessionId ?? options.fileSessionId
    const own = skipped > warnings.length ? [...warnings, `${skipped - warnings.length} more lines skipped.`] : warnings
    return {
      agent: 'codex',
      ...(id === undefined ? {} : { sessionId: id }),
      ...derived,
      messages: log.messages.slice(),
      cursor,
      ...(usage === undefined ? {} : { usage: { ...usage } }),
      warnings: [...extraWarnings, ...own],
    }
  }

  return { push, snapshot, placeholder: (text) => addLifecycle(text, undefined) }
}

function cut(text: string, max: number): string {
  return `${text.slice(0, max)}… (${text.length - max} more chars)`
}

function withAt(message: Omit<AgentMessage, 'seq'>, at: string | undefined): Omit<AgentMessage, 'seq'> {
  return at === undefined ? message : { ...message, at }
}

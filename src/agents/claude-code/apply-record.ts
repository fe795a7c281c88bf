import type { AgentMessage, AgentUsage } from '../runstate/agent-chat.js'
import { dialogFromToolUse, isDialogTool } from './dialog-mapping.js'
import { DISMISSED, outcomeFor } from './dialog-outcome.js'
import type { DialogResolution } from './dialog-outcome.js'
import type { FoldKey, FoldStore } from './fold-store.js'
import { heldWorkId, releasedWorkId, stoppedWorkId } from './pending-work.js'
import type { JsonObject } from './record-fields.js'
import { arr, asObject, epochMs, num, str } from './record-fields.js'
import { classifyUserLine } from './user-line.js'
import type { ToolResultBlock } from './user-line.js'

/**
 * Applies one main-chain transcript record to the fold store, in logical order. Never throws on
 * odd input: an unknown `type` or a mistyped field is ignored. Metadata records (`mode`,
 * `last-prompt`, `file-history-snapshot`, `ai-title`, …) never move state (§10 of the format
 * notes); command echoes render but are state-neutral; `isMeta` and sidechain lines are dropped.
 */

export interface ApplyOptions {
  /** Tool outputs longer than this are cut (display only; default 4096 chars). */
  maxToolOutputChars: number
}

export function applyRecord(store: FoldStore, record: JsonObject, options: ApplyOptions): void {
  const sessionId = str(record.sessionId)
  if (sessionId !== undefined && sessionId !== '') store.scalars.sessionId = sessionId
  if (record.isSidechain === true) return
  switch (record.type) {
    case 'user':
      applyUser(store, record, options)
      return
    case 'assistant':
      applyAssistant(store, record, options)
      return
    case 'system':
      applySystem(store, record)
      return
    case 'queue-operation': {
      const content = str(record.content)
      if (record.operation === 'enqueue' && content?.trimStart().startsWith('<task-notification>')) taskNotification(store, content, record, false)
      return
    }
    case 'attachment': {
      const attachment = asObject(record.attachment)
      const prompt = str(attachment?.prompt)
      if (attachment?.type === 'queued_command' && attachment.commandMode === 'task-notification' && prompt !== undefined) taskNotification(store, prompt, record, false)
      return
    }
    default:
      return
  }
}

function key(store: FoldStore, next: FoldKey, record: JsonObject): void {
  store.scalars.lastKey = next
  store.scalars.turnEnded = false
  const at = epochMs(record.timestamp)
  if (at !== undefined) store.scalars.lastStateAtMs = at
}

function timestamp(record: JsonObject): { at?: string } {
  const at = str(record.timestamp)
  return at === undefined ? {} : { at }
}

function endMerge(store: FoldStore): void {
  store.scalars.mergeMessageId = undefined
  store.scalars.mergeKind = undefined
  store.scalars.mergeIndex = undefined
}

function applyUser(store: FoldStore, record: JsonObject, options: ApplyOptions): void {
  const line = classifyUserLine(record)
  endMerge(store)
  switch (line.kind) {
    case 'tool-results':
      for (const result of line.results) applyToolResult(store, record, result, options)
      if (line.text !== undefined) store.push({ kind: 'text', role: 'user', text: line.text, ...timestamp(record) })
      key(store, 'tool_result', record)
      return
    case 'interrupt':
      closeOpenWork(store, 'interrupted')
      store.push({ kind: 'lifecycle', role: 'system', text: line.text, ...timestamp(record) })
      key(store, 'interrupt', record)
      return
    case 'command': {
      store.push({ kind: 'text', role: 'user', text: line.args === '' ? line.name : `${line.name} ${line.args}`, ...timestamp(record) })
      if (line.stdout !== undefined && line.stdout.trim() !== '') store.push({ kind: 'lifecycle', role: 'system', text: line.stdout.trim(), ...timestamp(record) })
      if (line.name === '/exit' || line.name === '/quit') key(store, 'exit', record)
      return
    }
    case 'command-output':
      if (line.stdout.trim() !== '') store.push({ kind: 'lifecycle', role: 'system', text: line.stdout.trim(), ...timestamp(record) })
      return
    case 'compact-summary':
    case 'meta':
    case 'empty':
      return
    case 'task-notification':
      taskNotification(store, line.text, record, true)
      return
    case 'prompt':
      closeOpenWork(store, 'superseded')
      store.push({ kind: 'text', role: 'user', text: line.text, ...timestamp(record) })
      store.scalars.errorText = undefined
      store.scalars.errorTag = undefined
      key(store, 'user:text', record)
      return
  }
}

function taskNotification(store: FoldStore, text: string, record: JsonObject, render: boolean): void {
  const released = releasedWorkId(text)
  if (released !== undefined) store.pendingWork.delete(released)
  if (render) store.push({ kind: 'lifecycle', role: 'system', text, ...timestamp(record) })
  key(store, 'task-notification', record)
}

/** An interrupt or a new prompt ends the turn: unanswered dialogs are dismissed, running tools stopped. */
function closeOpenWork(store: FoldStore, why: string): void {
  for (const id of store.openDialogs) {
    const index = store.tools.get(id)
    const message = index === undefined ? undefined : store.get(index)
    if (index !== undefined && message?.dialog !== undefined && message.dialog.outcome === undefined) {
      store.replace(index, { ...message, dialog: { ...message.dialog, outcome: { ...DISMISSED } } })
    }
  }
  store.openDialogs.clear()
  for (const id of store.openTools) {
    const index = store.tools.get(id)
    const message = index === undefined ? undefined : store.get(index)
    if (index !== undefined && message?.tool !== undefined && message.tool.status === 'running') {
      store.replace(index, { ...message, tool: { ...message.tool, status: 'error', output: why } })
    }
  }
  store.openTools.clear()
}

function applyToolResult(store: FoldStore, record: JsonObject, result: ToolResultBlock, options: ApplyOptions): void {
  store.setAdd(store.toolIds, result.toolId)
  const toolUseResult = record.toolUseResult
  const held = heldWorkId(toolUseResult)
  if (held !== undefined) store.pendingWork.add(held)
  const resolution: DialogResolution = { toolUseResult, content: result.content, isError: result.isError }
  const denial = str(record.toolDenialKind)
  if (denial !== undefined) resolution.denialKind = denial
  const index = store.tools.get(result.toolId)
  const message = index === undefined ? undefined : store.get(index)
  if (index === undefined || message === undefined) {
    if (store.early.size >= 256) store.mapDelete(store.early, store.early.keys().next().value as string)
    store.mapSet(store.early, result.toolId, { resolution })
    return
  }
  settle(store, index, message, resolution, options)
}

function settle(store: FoldStore, index: number, message: AgentMessage, resolution: DialogResolution, options: ApplyOptions): void {
  if (message.dialog !== undefined) {
    store.openDialogs.delete(message.dialog.toolId)
    store.replace(index, { ...message, dialog: { ...message.dialog, outcome: outcomeFor(message.dialog, resolution) } })
    return
  }
  if (message.tool === undefined) return
  store.openTools.delete(message.tool.id)
  const output = resolution.content.length > options.maxToolOutputChars ? cut(resolution.content, options.maxToolOutputChars) : resolution.content
  store.replace(index, { ...message, tool: { ...message.tool, status: resolution.isError ? 'error' : 'ok', output } })
}

function applyAssistant(store: FoldStore, record: JsonObject, options: ApplyOptions): void {
  const message = asObject(record.message)
  if (record.isApiErrorMessage === true) {
    endMerge(store)
    const text = contentText(message?.content) || 'API error'
    store.push({ kind: 'lifecycle', role: 'system', text, ...timestamp(record) })
    store.scalars.errorText = text
    const tag = str(record.error) ?? str(asObject(record.error)?.type)
    store.scalars.errorTag = tag
    key(store, 'error', record)
    return
  }
  const messageId = str(message?.id) ?? str(record.uuid) ?? ''
  countUsage(store, messageId, asObject(message?.usage))
  const stopReason = str(message?.stop_reason)
  for (const raw of arr(message?.content) ?? []) {
    const block = asObject(raw)
    if (block === undefined) continue
    if (block.type === 'text' || block.type === 'thinking') {
      const kind = block.type
      const text = str(kind === 'text' ? block.text : block.thinking) ?? ''
      if (text.trim() === '') continue
      appendBlock(store, messageId, kind, text, record)
      key(store, blockKey(kind, stopReason), record)
    } else if (block.type === 'tool_use') {
      endMerge(store)
      applyToolUse(store, block, record, options)
    }
  }
  if (stopReason === 'max_tokens') key(store, 'max_tokens', record)
}

function blockKey(kind: 'text' | 'thinking', stopReason: string | undefined): FoldKey {
  if (stopReason === 'tool_use') return 'assistant:streaming'
  if (stopReason === 'end_turn' || stopReason === 'stop_sequence') return 'assistant:end'
  if (stopReason === 'max_tokens') return 'max_tokens'
  return kind === 'thinking' ? 'assistant:streaming' : 'assistant:text'
}

/** Consecutive blocks of one kind in one API message become one message. */
function appendBlock(store: FoldStore, messageId: string, kind: 'text' | 'thinking', text: string, record: JsonObject): void {
  const s = store.scalars
  if (s.mergeMessageId === messageId && s.mergeKind === kind && s.mergeIndex !== undefined) {
    const previous = store.get(s.mergeIndex)
    if (previous !== undefined) {
      store.replace(s.mergeIndex, { ...previous, text: `${previous.text ?? ''}\n\n${text}` })
      return
    }
  }
  const index = store.push({ kind, role: 'assistant', text, ...timestamp(record) })
  s.mergeMessageId = messageId
  s.mergeKind = kind
  s.mergeIndex = index
}

function applyToolUse(store: FoldStore, block: JsonObject, record: JsonObject, options: ApplyOptions): void {
  const id = str(block.id)
  const name = str(block.name) ?? 'tool'
  if (id === undefined || store.tools.has(id)) return
  store.setAdd(store.toolIds, id)
  const stopped = stoppedWorkId(name, block.input)
  if (stopped !== undefined) store.pendingWork.delete(stopped)
  const early = store.early.get(id)
  if (isDialogTool(name)) {
    const dialog = dialogFromToolUse(id, name, block.input)
    const index = store.push({ kind: 'dialog', role: 'assistant', dialog, ...timestamp(record) })
    store.mapSet(store.tools, id, index)
    if (early !== undefined) {
      store.mapDelete(store.early, id)
      store.replace(index, { seq: index + 1, kind: 'dialog', role: 'assistant', dialog: { ...dialog, outcome: outcomeFor(dialog, early.resolution) }, ...timestamp(record) })
      key(store, 'tool_result', record)
      return
    }
    store.openDialogs.add(id)
    key(store, 'dialog', record)
    return
  }
  const index = store.push({ kind: 'tool', role: 'assistant', tool: { id, name, input: block.input ?? {}, status: 'running' }, ...timestamp(record) })
  store.mapSet(store.tools, id, index)
  store.openTools.add(id)
  store.scalars.lastToolName = name
  key(store, 'tool_use', record)
  if (early !== undefined) {
    store.mapDelete(store.early, id)
    const message = store.get(index)
    if (message !== undefined) settle(store, index, message, early.resolution, options)
    key(store, 'tool_result', record)
  }
}

function applySystem(store: FoldStore, record: JsonObject): void {
  endMerge(store)
  switch (record.subtype) {
    case 'turn_duration':
    case 'stop_hook_summary':
      store.scalars.turnEnded = true
      return
    case 'compact_boundary': {
      const trigger = str(asObject(record.compactMetadata)?.trigger)
      store.push({ kind: 'lifecycle', role: 'system', text: trigger === undefined ? 'Conversation compacted' : `Conversation compacted (${trigger})`, ...timestamp(record) })
      return
    }
    case 'local_command': {
      const line = classifyUserLine({ message: { content: str(record.content) ?? '' } })
      if (line.kind === 'command-output' && line.stdout.trim() !== '') store.push({ kind: 'lifecycle', role: 'system', text: line.stdout.trim(), ...timestamp(record) })
      return
    }
    case 'api_error': {
      const attempt = num(record.retryAttempt)
      const max = num(record.maxRetries)
      store.scalars.retryText = attempt !== undefined && max !== undefined ? `retrying after an API error (attempt ${attempt} of ${max})` : 'retrying after an API error'
      key(store, 'api-retry', record)
      return
    }
    default:
      return
  }
}

function countUsage(store: FoldStore, messageId: string, usage: JsonObject | undefined): void {
  if (usage === undefined) return
  const next: AgentUsage = {
    inputTokens: num(usage.input_tokens) ?? 0,
    outputTokens: num(usage.output_tokens) ?? 0,
    cacheReadTokens: num(usage.cache_read_input_tokens) ?? 0,
    cacheCreationTokens: num(usage.cache_creation_input_tokens) ?? 0,
  }
  const s = store.scalars
  const total = s.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 }
  // The lines of one API message repeat its usage: count it once (the latest value wins).
  const last = s.usageMessageId === messageId ? s.usageLast : undefined
  s.usage = {
    inputTokens: total.inputTokens + next.inputTokens - (last?.inputTokens ?? 0),
    outputTokens: total.outputTokens + next.outputTokens - (last?.outputTokens ?? 0),
    cacheReadTokens: (total.cacheReadTokens ?? 0) + (next.cacheReadTokens ?? 0) - (last?.cacheReadTokens ?? 0),
    cacheCreationTokens: (total.cacheCreationTokens ?? 0) + (next.cacheCreationTokens ?? 0) - (last?.cacheCreationTokens ?? 0),
  }
  s.usageMessageId = messageId
  s.usageLast = next
}

/**
 * The first `max` chars of a long output as an independent string: a plain `slice` would keep
 * the whole original alive (V8 sliced strings point into their parent), which on a huge
 * transcript retains every tool output in full.
 */
function cut(text: string, max: number): string {
  const head = Buffer.from(text.slice(0, max), 'utf8').toString('utf8')
  return `${head}… (${text.length - max} more chars)`
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  const parts: string[] = []
  for (const raw of arr(content) ?? []) {
    const text = str(asObject(raw)?.text)
    if (text !== undefined) parts.push(text)
  }
  return parts.join('\n')
}

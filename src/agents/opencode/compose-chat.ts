import type { AgentChat, AgentCursor, AgentMessage, AgentUsage, NormalizedStatus, RunState } from '../../contract/agent-chat.js'
import type { Dialog } from '../../contract/dialog.js'
import { numberField, recordField, stringField } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'
import { permissionDialog, permissionPrompt, questionDialog, questionOutcome, questionsOf } from './dialogs.js'
import { isFinal } from './session-fold.js'
import type { SessionModel } from './session-fold.js'

/** Long tool outputs are kept for display only, cut to this many characters. */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 4096

export interface ComposeOptions {
  cursor?: AgentCursor
  warnings?: string[]
  maxToolOutputChars?: number
}

/**
 * The `AgentChat` of a folded session. Pure: the same model gives the same chat. Messages are the
 * session's messages in id order and, inside each, its parts in id order (OpenCode ids sort by
 * creation time, so a part keeps its seq as the session grows). State: docs/opencode.md § States.
 */
export function composeChat(model: SessionModel, options: ComposeOptions = {}): AgentChat {
  const messages: AgentMessage[] = []
  let usage: AgentUsage | undefined
  const maxOutput = options.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS
  for (const id of [...model.messages.keys()].sort()) {
    const info = model.messages.get(id) as JsonRecord
    const role = info.role === 'user' ? 'user' : 'assistant'
    const created = numberField(recordField(info, 'time'), 'created')
    const at = created === undefined ? undefined : new Date(created).toISOString()
    if (role === 'assistant') usage = addUsage(usage, recordField(info, 'tokens'))
    const parts = model.parts.get(id)
    for (const partId of [...(parts?.keys() ?? [])].sort()) {
      const message = messageOfPart(parts?.get(partId) as JsonRecord, role, model, maxOutput)
      if (message) messages.push({ seq: messages.length + 1, ...message, ...(at !== undefined ? { at } : {}) })
    }
  }
  const state = deriveState(model, messages)
  return {
    agent: 'opencode',
    ...(model.sessionId !== undefined ? { sessionId: model.sessionId } : {}),
    state: state.state,
    status: state.status,
    ...(state.detail !== undefined ? { detail: state.detail } : {}),
    messages,
    ...(state.pendingDialog ? { pendingDialog: state.pendingDialog } : {}),
    cursor: options.cursor ?? { offset: 0, lines: 0 },
    ...(usage ? { usage } : {}),
    warnings: options.warnings ?? [],
  }
}

type PartMessage = Omit<AgentMessage, 'seq' | 'at'>

function messageOfPart(part: JsonRecord, role: 'user' | 'assistant', model: SessionModel, maxOutput: number): PartMessage | undefined {
  switch (part.type) {
    case 'text':
      // Synthetic text (file contents OpenCode attaches to a prompt) and ignored text are not the conversation.
      if (part.synthetic === true || part.ignored === true) return undefined
      return { kind: 'text', role, text: stringField(part, 'text') ?? '' }
    case 'reasoning':
      return { kind: 'thinking', role: 'assistant', text: stringField(part, 'text') ?? '' }
    case 'tool':
      return toolMessage(part, model, maxOutput)
    case 'compaction':
      return { kind: 'lifecycle', role: 'system', text: 'conversation compacted' }
    case 'subtask':
      return { kind: 'lifecycle', role: 'system', text: `subtask: ${stringField(part, 'description') ?? stringField(part, 'agent') ?? ''}` }
    default:
      // step-start / step-finish / snapshot / patch / agent / file / retry: bookkeeping, not messages.
      return undefined
  }
}

function toolMessage(part: JsonRecord, model: SessionModel, maxOutput: number): PartMessage {
  const state = recordField(part, 'state')
  const status = stringField(state, 'status')
  const callId = stringField(part, 'callID') ?? stringField(part, 'id') ?? ''
  const name = stringField(part, 'tool') ?? 'tool'
  const input = state?.input ?? {}
  if (name === 'question') {
    const questions = questionsOf(input)
    const first = questions[0]
    // Answers from the `question.replied` event, else from the finished tool (a resync has no events).
    const answers = model.questionAnswers.get(callId) ?? answersOf(recordField(state, 'metadata'))
    const dialog: Dialog = {
      toolId: callId,
      kind: 'question',
      prompt: first?.question ?? '',
      options: first?.options ?? [],
      multiSelect: first?.multiSelect ?? false,
      ...(questions.length > 1 ? { questions } : {}),
      answerable: false,
    }
    if (answers !== undefined) dialog.outcome = questionOutcome(questions, answers)
    else if (status === 'error') dialog.outcome = { dismissed: true, approved: false }
    return { kind: 'dialog', role: 'assistant', dialog }
  }
  const output = status === 'completed' ? stringField(state, 'output') : status === 'error' ? stringField(state, 'error') : undefined
  return {
    kind: 'tool',
    role: 'assistant',
    tool: {
      id: callId,
      name,
      input,
      status: status === 'completed' ? 'ok' : status === 'error' ? 'error' : 'running',
      ...(output !== undefined ? { output: output.length > maxOutput ? `${output.slice(0, maxOutput)}…` : output } : {}),
    },
  }
}

interface DerivedState {
  state: RunState
  status: NormalizedStatus
  detail?: string
  pendingDialog?: Dialog
}

/** First match wins; the table in docs/opencode.md § States lists the same rows in the same order. */
function deriveState(model: SessionModel, messages: readonly AgentMessage[]): DerivedState {
  const question = [...model.questions.values()].sort(byId)[0]
  if (question) return { state: 'question', status: 'waiting_for_input', detail: 'question', pendingDialog: questionDialog(question) }
  const permission = [...model.permissions.values()].sort(byId)[0]
  if (permission) {
    return { state: 'needs_input', status: 'waiting_for_approval', detail: `permission: ${permissionPrompt(permission)}`, pendingDialog: permissionDialog(permission) }
  }
  if (model.lost !== undefined) return { state: 'needs_input', status: 'unknown', detail: model.lost }
  const status = model.status
  if (status?.type === 'retry') {
    const next = status.next === undefined ? '' : `, next try at ${new Date(status.next).toISOString()}`
    return { state: 'working', status: 'running', detail: `retrying: ${status.message ?? 'the provider failed'} (attempt ${status.attempt ?? '?'}${next})` }
  }
  const last = lastMessage(model)
  if (status?.type === 'busy') return busyState(model, last)
  if (last === undefined) {
    return messages.length === 0 ? { state: 'idle', status: 'idle' } : { state: 'needs_input', status: 'unknown' }
  }
  const error = recordField(last, 'error') ?? (model.sessionError && last.role === 'assistant' ? model.sessionError : undefined) ?? model.sessionError
  if (error) {
    const name = stringField(error, 'name')
    if (name === 'MessageAbortedError') return { state: 'needs_input', status: 'stopped', detail: 'aborted' }
    if (name === 'MessageOutputLengthError') return { state: 'needs_input', status: 'blocked', detail: 'the reply hit the output token limit' }
    return { state: 'needs_input', status: 'failed', detail: errorText(error) }
  }
  const finished = last.role === 'assistant' && numberField(recordField(last, 'time'), 'completed') !== undefined && last.finish !== 'tool-calls'
  if (finished) return { state: 'needs_input', status: 'completed' }
  if (status?.type === 'idle' && last.role === 'assistant' && last.finish === 'tool-calls') {
    // The loop stopped after a tool call: a rejected permission or dismissed question ends the turn this way.
    const failedTool = lastParts(model, last).filter((part) => part.type === 'tool' && stringField(recordField(part, 'state'), 'status') === 'error').at(-1)
    if (failedTool) return { state: 'needs_input', status: 'stopped', detail: `${stringField(failedTool, 'tool') ?? 'a tool'} was denied: ${stringField(recordField(failedTool, 'state'), 'error') ?? ''}`.trim() }
  }
  // Never a terminal state from silence: an unfinished reply is work in progress unless the server said idle.
  if (status?.type === 'idle') return { state: 'needs_input', status: 'unknown', detail: 'the server reports idle; the last reply has no end' }
  return busyState(model, last)
}

function lastParts(model: SessionModel, message: JsonRecord | undefined): JsonRecord[] {
  const id = stringField(message, 'id')
  return id === undefined ? [] : [...(model.parts.get(id)?.entries() ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, part]) => part)
}

function busyState(model: SessionModel, last: JsonRecord | undefined): DerivedState {
  const part = lastParts(model, last).filter((candidate) => candidate.type === 'text' || candidate.type === 'reasoning' || candidate.type === 'tool').at(-1)
  if (last?.role === 'assistant' && part !== undefined) {
    if (part.type === 'tool' && !isFinal(part)) return { state: 'working', status: 'running', detail: `running ${stringField(part, 'tool') ?? 'a tool'}` }
    if (part.type !== 'tool' && !isFinal(part)) return { state: 'working', status: 'streaming' }
  }
  return { state: 'working', status: 'running' }
}

function lastMessage(model: SessionModel): JsonRecord | undefined {
  const ids = [...model.messages.keys()].sort()
  const id = ids.at(-1)
  return id === undefined ? undefined : model.messages.get(id)
}

function answersOf(metadata: JsonRecord | undefined): string[][] | undefined {
  const answers = metadata?.answers
  if (!Array.isArray(answers)) return undefined
  return answers.map((answer) => (Array.isArray(answer) ? answer.filter((item): item is string => typeof item === 'string') : []))
}

function errorText(error: JsonRecord): string {
  const message = stringField(recordField(error, 'data'), 'message') ?? stringField(error, 'message')
  const name = stringField(error, 'name') ?? 'error'
  return message === undefined ? name : `${name}: ${message.split('\n')[0] ?? ''}`
}

function addUsage(total: AgentUsage | undefined, tokens: JsonRecord | undefined): AgentUsage | undefined {
  if (!tokens) return total
  const input = numberField(tokens, 'input') ?? 0
  const output = (numberField(tokens, 'output') ?? 0) + (numberField(tokens, 'reasoning') ?? 0)
  const cache = recordField(tokens, 'cache')
  const read = numberField(cache, 'read') ?? 0
  const write = numberField(cache, 'write') ?? 0
  if (total === undefined && input + output + read + write === 0) return undefined
  return {
    inputTokens: (total?.inputTokens ?? 0) + input,
    outputTokens: (total?.outputTokens ?? 0) + output,
    cacheReadTokens: (total?.cacheReadTokens ?? 0) + read,
    cacheCreationTokens: (total?.cacheCreationTokens ?? 0) + write,
  }
}

function byId(a: JsonRecord, b: JsonRecord): number {
  const left = stringField(a, 'id') ?? ''
  const right = stringField(b, 'id') ?? ''
  return left < right ? -1 : left > right ? 1 : 0
}

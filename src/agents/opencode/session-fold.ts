import { arrayField, isRecord, numberField, recordField, stringField } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'
import type { OpencodeEvent } from './sse-parser.js'

/**
 * The fold of one OpenCode session: its messages and parts, its live status, its pending permission
 * and question requests, and the answers given to questions. Events of other sessions are ignored;
 * unknown event types too (OpenCode emits dozens: plugins, catalogs, LSP, PTYs).
 *
 * The fold is a model, not a log, so the order events arrive in matters as little as possible:
 * messages and parts are keyed by id and composed in id order (OpenCode ids sort by creation time),
 * a part never goes back from final (a tool `completed`/`error`, a text with `time.end`) to
 * unfinished, and a message keeps `time.completed`, `finish` and `error` once it had them. A resync
 * (`resync`) replaces everything the server's snapshot covers.
 */

export interface SessionStatusInfo {
  type: 'idle' | 'busy' | 'retry'
  attempt?: number
  message?: string
  /** Epoch ms of the next retry. */
  next?: number
}

export interface SessionModel {
  /** The session followed; the first session an event names when not given. */
  sessionId: string | undefined
  /** Message infos by id. */
  messages: Map<string, JsonRecord>
  /** Parts by message id, then part id. */
  parts: Map<string, Map<string, JsonRecord>>
  /** `undefined` until the server said (a recorded log may start mid-session). */
  status: SessionStatusInfo | undefined
  permissions: Map<string, JsonRecord>
  questions: Map<string, JsonRecord>
  /** Question replies by the question tool's call id (or the request id): `null` when rejected. */
  questionAnswers: Map<string, string[][] | null>
  /** The last `session.error` payload since the last prompt. */
  sessionError: JsonRecord | undefined
  /** The server connection was lost (set by the live watcher, never by events). */
  lost: string | undefined
}

export function createSessionModel(sessionId?: string): SessionModel {
  return {
    sessionId,
    messages: new Map(),
    parts: new Map(),
    status: undefined,
    permissions: new Map(),
    questions: new Map(),
    questionAnswers: new Map(),
    sessionError: undefined,
    lost: undefined,
  }
}

/** Applies one event to the model (mutating it). Returns false when the event did not concern it. */
export function applyEvent(model: SessionModel, event: OpencodeEvent): boolean {
  const props = event.properties
  const sessionId = stringField(props, 'sessionID')
  if (sessionId === undefined) return false
  if (model.sessionId === undefined) model.sessionId = sessionId
  if (sessionId !== model.sessionId) return false
  switch (event.type) {
    case 'session.status': {
      const status = toStatus(props.status)
      if (status) model.status = status
      return status !== undefined
    }
    case 'session.idle':
      model.status = { type: 'idle' }
      return true
    case 'session.error':
      model.sessionError = recordField(props, 'error') ?? { name: 'UnknownError' }
      return true
    case 'message.updated': {
      const info = recordField(props, 'info')
      if (info) putMessage(model, info)
      return info !== undefined
    }
    case 'message.removed': {
      const id = stringField(props, 'messageID')
      if (id === undefined) return false
      model.messages.delete(id)
      model.parts.delete(id)
      return true
    }
    case 'message.part.updated': {
      const part = recordField(props, 'part')
      if (part) putPart(model, part)
      return part !== undefined
    }
    case 'message.part.delta':
      return applyDelta(model, props)
    case 'message.part.removed': {
      const messageId = stringField(props, 'messageID')
      const partId = stringField(props, 'partID')
      if (messageId === undefined || partId === undefined) return false
      model.parts.get(messageId)?.delete(partId)
      return true
    }
    case 'permission.asked': {
      const id = stringField(props, 'id')
      if (id !== undefined) model.permissions.set(id, props)
      return id !== undefined
    }
    case 'permission.replied': {
      const id = stringField(props, 'requestID')
      if (id !== undefined) model.permissions.delete(id)
      return id !== undefined
    }
    case 'question.asked': {
      const id = stringField(props, 'id')
      if (id !== undefined) model.questions.set(id, props)
      return id !== undefined
    }
    case 'question.replied':
    case 'question.rejected': {
      const id = stringField(props, 'requestID')
      if (id === undefined) return false
      const request = model.questions.get(id)
      model.questions.delete(id)
      const key = stringField(recordField(request, 'tool'), 'callID') ?? id
      model.questionAnswers.set(key, event.type === 'question.rejected' ? null : toAnswers(arrayField(props, 'answers')))
      return true
    }
    default:
      return false
  }
}

/** What the server says now: `GET /session/:id/message`, `/session/status`, `/permission`, `/question`. */
export interface SessionSnapshot {
  messages: unknown[]
  status: unknown
  permissions: unknown[]
  questions: unknown[]
}

/** Replaces the model's messages, status and pending requests with the server's snapshot. */
export function resync(model: SessionModel, snapshot: SessionSnapshot): void {
  const sessionId = model.sessionId
  model.messages.clear()
  model.parts.clear()
  for (const entry of snapshot.messages) {
    const info = recordField(entry, 'info')
    if (!info) continue
    putMessage(model, info)
    for (const part of arrayField(entry, 'parts') ?? []) if (isRecord(part)) putPart(model, part)
  }
  // A session absent from `/session/status` is idle (the server keeps only live ones).
  model.status = toStatus(snapshot.status) ?? { type: 'idle' }
  model.permissions.clear()
  for (const request of snapshot.permissions) {
    const id = stringField(request, 'id')
    if (id !== undefined && isRecord(request) && request.sessionID === sessionId) model.permissions.set(id, request)
  }
  model.questions.clear()
  for (const request of snapshot.questions) {
    const id = stringField(request, 'id')
    if (id !== undefined && isRecord(request) && request.sessionID === sessionId) model.questions.set(id, request)
  }
  model.lost = undefined
}

function putMessage(model: SessionModel, info: JsonRecord): void {
  const id = stringField(info, 'id')
  if (id === undefined) return
  const before = model.messages.get(id)
  if (before === undefined && info.role === 'user') model.sessionError = undefined // a new prompt starts over
  if (before === undefined) {
    model.messages.set(id, info)
    return
  }
  // Completion facts are never taken back by a later (or reordered) update.
  const merged: JsonRecord = { ...before, ...info }
  const completed = numberField(recordField(info, 'time'), 'completed') ?? numberField(recordField(before, 'time'), 'completed')
  if (completed !== undefined) merged.time = { ...recordField(before, 'time'), ...recordField(info, 'time'), completed }
  for (const key of ['finish', 'error'] as const) if (info[key] === undefined && before[key] !== undefined) merged[key] = before[key]
  model.messages.set(id, merged)
}

function putPart(model: SessionModel, part: JsonRecord): void {
  const id = stringField(part, 'id')
  const messageId = stringField(part, 'messageID')
  if (id === undefined || messageId === undefined) return
  let parts = model.parts.get(messageId)
  if (!parts) {
    parts = new Map()
    model.parts.set(messageId, parts)
  }
  const before = parts.get(id)
  if (before !== undefined && isFinal(before) && !isFinal(part)) return
  parts.set(id, part)
}

/** `message.part.delta`: appends to a string field of a known part; a delta for an unknown part waits for its update. */
function applyDelta(model: SessionModel, props: JsonRecord): boolean {
  const messageId = stringField(props, 'messageID')
  const partId = stringField(props, 'partID')
  const field = stringField(props, 'field')
  const delta = stringField(props, 'delta')
  if (messageId === undefined || partId === undefined || field === undefined || delta === undefined) return false
  const part = model.parts.get(messageId)?.get(partId)
  if (part === undefined || isFinal(part)) return false
  const current = part[field]
  model.parts.get(messageId)?.set(partId, { ...part, [field]: typeof current === 'string' ? current + delta : delta })
  return true
}

/** A tool that finished, or a text/reasoning part whose time has an end. */
export function isFinal(part: JsonRecord): boolean {
  if (part.type === 'tool') {
    const status = stringField(recordField(part, 'state'), 'status')
    return status === 'completed' || status === 'error'
  }
  if (part.type === 'text' || part.type === 'reasoning') return numberField(recordField(part, 'time'), 'end') !== undefined
  return false
}

function toStatus(value: unknown): SessionStatusInfo | undefined {
  const type = stringField(value, 'type')
  if (type !== 'idle' && type !== 'busy' && type !== 'retry') return undefined
  const status: SessionStatusInfo = { type }
  const attempt = numberField(value, 'attempt')
  const message = stringField(value, 'message')
  const next = numberField(value, 'next')
  if (attempt !== undefined) status.attempt = attempt
  if (message !== undefined) status.message = message
  if (next !== undefined) status.next = next
  return status
}

function toAnswers(value: unknown[] | undefined): string[][] {
  return (value ?? []).map((answer) => (Array.isArray(answer) ? answer.filter((item): item is string => typeof item === 'string') : []))
}

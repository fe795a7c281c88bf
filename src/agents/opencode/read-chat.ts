import type { AgentChat } from '../../contract/agent-chat.js'
import { arrayField, isRecord } from '../process/json-value.js'
import { composeChat } from './compose-chat.js'
import type { ComposeOptions } from './compose-chat.js'
import { checkSessionId, createOpencodeClient } from './http-client.js'
import type { OpencodeAuth, OpencodeClient } from './http-client.js'
import { OpencodeServerError } from './opencode-errors.js'
import { createSessionModel, resync } from './session-fold.js'
import type { SessionModel, SessionSnapshot } from './session-fold.js'

export interface ReadChatInput {
  /** Where `opencode serve` listens, e.g. `http://127.0.0.1:4096`. */
  baseUrl: string
  sessionId: string
  /** Basic auth; default from `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`. */
  auth?: OpencodeAuth
  /** Per request; default 10 s. */
  timeoutMs?: number
}

/**
 * One session's `AgentChat`, read from the live server: `GET /session/:id/message`,
 * `/session/status`, `/permission` and `/question`, folded like the event stream would. OpenCode
 * keeps run state (busy, retry, pending requests) only in the server's memory, so this is the only
 * read that knows it. Throws an `OpencodeServerError` when the server cannot be read (unreachable,
 * 401, unknown session: `OPENCODE_HTTP_ERROR` with `status: 404`).
 */
export async function readChat(input: ReadChatInput, options: ComposeOptions = {}): Promise<AgentChat> {
  const client = createOpencodeClient({ baseUrl: input.baseUrl, ...(input.auth ? { auth: input.auth } : {}), ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}) })
  const model = createSessionModel(checkSessionId(input.sessionId, client.baseUrl))
  resync(model, await fetchSnapshot(client, input.sessionId))
  return composeChat(model, options)
}

/** The four reads a resync needs, in parallel. */
export async function fetchSnapshot(client: OpencodeClient, sessionId: string): Promise<SessionSnapshot> {
  const id = encodeURIComponent(sessionId)
  const [messages, statuses, permissions, questions] = await Promise.all([
    client.get(`/session/${id}/message`),
    client.get('/session/status'),
    client.get('/permission'),
    client.get('/question'),
  ])
  if (!Array.isArray(messages)) throw badShape(client, `/session/${id}/message`, 'an array of { info, parts }')
  return {
    messages,
    status: isRecord(statuses) ? statuses[sessionId] : undefined,
    permissions: Array.isArray(permissions) ? permissions : (arrayField(permissions, 'data') ?? []),
    questions: Array.isArray(questions) ? questions : (arrayField(questions, 'data') ?? []),
  }
}

/** Resyncs a model from the server (used by the watcher after a reconnect). */
export async function resyncFromServer(client: OpencodeClient, model: SessionModel, sessionId: string): Promise<void> {
  resync(model, await fetchSnapshot(client, sessionId))
}

function badShape(client: OpencodeClient, path: string, expected: string): OpencodeServerError {
  return new OpencodeServerError({ code: 'OPENCODE_BAD_RESPONSE', message: `GET ${client.baseUrl}${path} did not answer with ${expected}.`, hint: 'Is this an `opencode serve` of version 1.18 or later?', url: `${client.baseUrl}${path}` })
}

import type { AgentChat } from '../../contract/agent-chat.js'
import { arrayField, isRecord } from '../process/json-value.js'
import { composeChat } from './compose-chat.js'
import type { ComposeOptions } from './compose-chat.js'
import { checkSessionId, createOpencodeClient } from './http-client.js'
import type { OpencodeAuth, OpencodeClient } from './http-client.js'
import { defaultOpencodeDataDir, readDiskSession } from './disk-fallback.js'
import { DISK_DETAIL } from './disk-chat.js'
import { OpencodeServerError } from './opencode-errors.js'
import { createSessionModel, resync } from './session-fold.js'
import type { SessionModel, SessionSnapshot } from './session-fold.js'

export interface ReadChatInput {
  /** Where `opencode serve` listens, e.g. `http://127.0.0.1:4096`. */
  baseUrl: string
  sessionId: string
  /** Basic auth; default from `OPENCODE_SERVER_PASSWORD` / `OPENCODE_SERVER_USERNAME`; `null`: none. */
  auth?: OpencodeAuth | null
  /** Per request; default 10 s. */
  timeoutMs?: number
  /** The largest JSON body read (default 32 MiB). */
  maxBodyBytes?: number
  /**
   * OpenCode's data folder, read when nothing answers at `baseUrl` (default `$XDG_DATA_HOME/opencode`,
   * else `~/.local/share/opencode`); `false`: never fall back, throw `OPENCODE_UNREACHABLE`.
   */
  dataDir?: string | false
}

/**
 * One session's `AgentChat`, read from the live server: `GET /session/:id/message`,
 * `/session/status`, `/permission` and `/question`, folded like the event stream would. OpenCode
 * keeps run state (busy, retry, pending requests) only in the server's memory, so this is the only
 * read that knows it. When nothing answers at `baseUrl` (connection refused), the session's history
 * comes from OpenCode's files instead (seed 002): `needs_input` / `unknown`, a detail saying the
 * server is not reachable, no dialog. Throws an `OpencodeServerError` otherwise: unreachable and not
 * on disk either, 401, a timeout, an unknown session (`OPENCODE_HTTP_ERROR` with `status: 404`).
 */
export async function readChat(input: ReadChatInput, options: ComposeOptions = {}): Promise<AgentChat> {
  const client = createOpencodeClient({
    baseUrl: input.baseUrl,
    ...(input.auth !== undefined ? { auth: input.auth } : {}),
    ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    ...(input.maxBodyBytes !== undefined ? { maxBodyBytes: input.maxBodyBytes } : {}),
  })
  const model = createSessionModel(checkSessionId(input.sessionId, client.baseUrl))
  let snapshot: SessionSnapshot
  try {
    snapshot = await fetchSnapshot(client, input.sessionId)
  } catch (error) {
    if (input.dataDir === false || !OpencodeServerError.isInstance(error) || error.code !== 'OPENCODE_UNREACHABLE') throw error
    return fromDisk(input.dataDir ?? defaultOpencodeDataDir(), input.sessionId, client.baseUrl, error)
  }
  resync(model, snapshot)
  return composeChat(model, options)
}

/** The server did not answer: the session's history from its files, or the server's error when they do not have it. */
async function fromDisk(dataDir: string, sessionId: string, baseUrl: string, unreachable: OpencodeServerError): Promise<AgentChat> {
  let chat: AgentChat | undefined
  try {
    chat = await readDiskSession(dataDir, sessionId)
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause)
    throw new OpencodeServerError({ code: unreachable.code, message: `${unreachable.message} Its files could not be read either: ${reason}`, ...(unreachable.hint !== undefined ? { hint: unreachable.hint } : {}), url: unreachable.url, cause })
  }
  if (chat === undefined) throw unreachable
  const { pendingDialog: _none, ...history } = chat
  return { ...history, state: 'needs_input', status: 'unknown', detail: `the OpenCode server at ${baseUrl} is not reachable; ${DISK_DETAIL}` }
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

import { createHash } from 'node:crypto'
import type { AgentChat } from '../../contract/agent-chat.js'
import { composeChat } from '../opencode/compose-chat.js'
import { createOpencodeClient } from '../opencode/http-client.js'
import type { OpencodeAuth } from '../opencode/http-client.js'
import { readChat } from '../opencode/read-chat.js'
import { createSessionModel } from '../opencode/session-fold.js'
import { isRecord, numberField, recordField, stringField } from '../process/json-value.js'
import { messageMark, observeChat } from './session-source.js'
import type { FoundSession, SessionReader, SessionSource } from './session-source.js'

/**
 * OpenCode's sessions in `createMonitor` (`opencodeUrl`): a server, not files. Each tick one scan
 * reads `GET /session`, `/session/status`, `/permission` and `/question`; a session is read again
 * (`readChat`) only when its evidence changed: its `time.updated`, its live status, or a request
 * pending on it. That evidence goes into the stamp (the monitor re-reads on a new stamp), so a
 * permission asked while nothing was written still shows at the next tick. The server lists every
 * session of its project, so its process evidence is `none` (seed 002: the server's status is the
 * state; silence rules apply as for Codex). An unreachable server fails the scan: the monitor
 * warns and keeps the sessions as last seen.
 */
export function createOpencodeSource(options: { baseUrl: string; auth?: OpencodeAuth; timeoutMs?: number }): SessionSource {
  const client = createOpencodeClient({ baseUrl: options.baseUrl, ...(options.auth ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000 })

  async function scan(): Promise<FoundSession[]> {
    const [sessions, statuses, permissions, questions] = await Promise.all([client.get('/session'), client.get('/session/status'), client.get('/permission'), client.get('/question')])
    const pending = new Map<string, string[]>()
    for (const request of [...(Array.isArray(permissions) ? permissions : []), ...(Array.isArray(questions) ? questions : [])]) {
      const sessionId = stringField(request, 'sessionID')
      const id = stringField(request, 'id')
      if (sessionId !== undefined && id !== undefined) pending.set(sessionId, [...(pending.get(sessionId) ?? []), id])
    }
    return (Array.isArray(sessions) ? sessions : []).filter(isRecord).flatMap((session) => {
      const listed = listedSession(session, client.baseUrl)
      if (listed === undefined) return []
      const { found, updatedAt } = listed
      const status = isRecord(statuses) ? JSON.stringify(statuses[found.sessionId] ?? { type: 'idle' }) : ''
      const evidence = `${updatedAt}|${status}|${(pending.get(found.sessionId) ?? []).sort().join(',')}`
      // Not a file: the stamp carries the server's evidence (ctime: a digest of it), so it changes exactly when that does.
      return [{ ...found, stamp: { ino: 0, size: 0, mtimeMs: updatedAt, ctimeMs: digest(evidence) }, liveMark: evidence }]
    })
  }

  function createReader(found: FoundSession): SessionReader {
    let chat: AgentChat = composeChat(createSessionModel(found.sessionId))
    let title: string | undefined
    return {
      async read(_gate, current) {
        chat = await readChat({ baseUrl: client.baseUrl, sessionId: current.sessionId, ...(options.auth ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000 })
        title ??= chat.messages.find((message) => message.kind === 'text' && message.role === 'user')?.text?.trim().slice(0, 200)
      },
      observe(current) {
        const last = chat.messages.at(-1)
        const transcriptAt = current.stamp?.mtimeMs
        return {
          ...observeChat(chat),
          ...(title !== undefined ? { title } : {}),
          ...(transcriptAt !== undefined && transcriptAt > 0 ? { transcriptAt } : {}),
          activityMark: `${messageMark(last, transcriptAt)}|${chat.state}|${chat.status}|${chat.detail ?? ''}`,
        }
      },
    }
  }

  return { agent: 'opencode', watchRoots: () => [], scan, createReader }
}

/**
 * A session as `GET /session` lists it, found for the monitor (process evidence `none`: the server
 * lists every session of its project, running or not), with its last update (epoch ms).
 */
export function listedSession(session: Record<string, unknown>, baseUrl: string): { found: FoundSession; updatedAt: number } | undefined {
  const sessionId = stringField(session, 'id')
  if (sessionId === undefined) return undefined
  const time = recordField(session, 'time')
  const directory = stringField(session, 'directory')
  const found: FoundSession = {
    key: `opencode:${sessionId}`,
    agent: 'opencode',
    sessionId,
    path: `${baseUrl}/session/${sessionId}`,
    process: 'none',
    ...(directory !== undefined ? { cwd: directory } : {}),
  }
  return { found, updatedAt: numberField(time, 'updated') ?? numberField(time, 'created') ?? 0 }
}

/** A number that changes with the text (the first 48 bits of its SHA-256). */
function digest(text: string): number {
  return Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 12), 16)
}

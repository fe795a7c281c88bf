import { createHash } from 'node:crypto'
import type { AgentChat } from '../../contract/agent-chat.js'
import { composeChat } from '../opencode/compose-chat.js'
import { DISK_DETAIL } from '../opencode/disk-chat.js'
import { listDiskSessions } from '../opencode/disk-fallback.js'
import { createOpencodeClient } from '../opencode/http-client.js'
import type { OpencodeAuth } from '../opencode/http-client.js'
import { OpencodeServerError } from '../opencode/opencode-errors.js'
import { readChat } from '../opencode/read-chat.js'
import { createSessionModel } from '../opencode/session-fold.js'
import { isRecord, numberField, recordField, stringField } from '../process/json-value.js'
import { messageMark, observeChat } from './session-source.js'
import type { FoundSession, SessionObservation, SessionReader, SessionSource } from './session-source.js'

/**
 * OpenCode's sessions in `createMonitor` (`opencodeUrl`): a server first, its files when it is down.
 *
 * Server up: each tick one scan reads `GET /session`, `/session/status`, `/permission` and
 * `/question`; a session is read again (`readChat`, four at a time) only when its evidence changed:
 * its `time.updated`, its live status, or a request pending on it. That evidence goes into the
 * stamp (the monitor re-reads on a new stamp), so a permission asked while nothing was written
 * still shows at the next tick. Seed 002: the server's status beats timestamps, so a session the
 * server reports busy or retrying, or with a permission or question pending, is live process
 * evidence (`alive`: never presumed ended by silence); any other listed session has none (the
 * server lists every session of its project, old ones too).
 *
 * Server down (or unusable): the inventory of `dataDir` (`opencode.db`, then the legacy JSON files),
 * every session `needs_input` / `unknown` under the same key, no history read; the next scan that
 * reaches the server switches them back to live states. The switch is noted once each way, except
 * a refused connection with `quietWhenDown` (OpenCode simply not running at a default address).
 * Without `dataDir` a failed scan throws: the monitor warns and keeps the sessions as last seen.
 *
 * Trust (issue 28): the client never asks a loopback server whose socket another user owns
 * (`OPENCODE_FOREIGN_LISTENER`: noted even with `quietWhenDown`, since that is not OpenCode simply
 * not running), and sends credentials only when the caller gave them (`auth`; `null`: none).
 */

export interface OpencodeSourceOptions {
  baseUrl: string
  /** Default from `process.env` (the client's default); `null`: send none. */
  auth?: OpencodeAuth | null
  timeoutMs?: number
  /** OpenCode's data folder: the inventory while the server cannot be read. */
  dataDir?: string
  /** A refused connection is not noted (the server is optional at this address). */
  quietWhenDown?: boolean
  /** Where the source's notes go (the monitor's warnings). */
  note?: (message: string) => void
}

/** Sessions read from the server at once. */
const READ_CONCURRENCY = 4
const DISK_MARK = 'disk'

export function createOpencodeSource(options: OpencodeSourceOptions): SessionSource {
  const client = createOpencodeClient({ baseUrl: options.baseUrl, ...(options.auth !== undefined ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000 })
  const note = options.note ?? (() => undefined)
  const limit = createLimiter(READ_CONCURRENCY)
  /** The titles OpenCode gave the sessions, from the last scan (server or files). */
  const titles = new Map<string, string>()
  let down: 'no' | 'noted' | 'quiet' = 'no'
  /** Why the files are read: the detail every disk-listed session carries. */
  let downDetail = ''
  let diskWarnings = ''

  async function scanServer(): Promise<FoundSession[]> {
    const [sessions, statuses, permissions, questions] = await Promise.all([client.get('/session'), client.get('/session/status'), client.get('/permission'), client.get('/question')])
    const pending = new Map<string, string[]>()
    for (const request of [...(Array.isArray(permissions) ? permissions : []), ...(Array.isArray(questions) ? questions : [])]) {
      const sessionId = stringField(request, 'sessionID')
      const id = stringField(request, 'id')
      if (sessionId !== undefined && id !== undefined) pending.set(sessionId, [...(pending.get(sessionId) ?? []), id])
    }
    titles.clear()
    return (Array.isArray(sessions) ? sessions : []).filter(isRecord).flatMap((session) => {
      const listed = listedSession(session, client.baseUrl)
      if (listed === undefined) return []
      const { found, updatedAt } = listed
      const title = titleOf(stringField(session, 'title'))
      if (title !== undefined) titles.set(found.sessionId, title)
      const status: unknown = isRecord(statuses) ? (statuses[found.sessionId] ?? { type: 'idle' }) : undefined
      const requests = (pending.get(found.sessionId) ?? []).sort()
      const live = requests.length > 0 || ['busy', 'retry'].includes(stringField(status, 'type') ?? '')
      const evidence = `${updatedAt}|${JSON.stringify(status ?? '')}|${requests.join(',')}`
      // Not a file: the stamp carries the server's evidence (ctime: a digest of it), so it changes exactly when that does.
      return [{ ...found, process: live ? ('alive' as const) : ('none' as const), stamp: { ino: 0, size: 0, mtimeMs: updatedAt, ctimeMs: digest(evidence) }, liveMark: evidence }]
    })
  }

  async function scanDisk(dataDir: string): Promise<FoundSession[]> {
    const { sessions, warnings } = await listDiskSessions(dataDir)
    const said = warnings.join('\n')
    if (said !== diskWarnings && said !== '') for (const warning of warnings) note(`OpenCode's files: ${warning}`)
    diskWarnings = said
    titles.clear()
    return sessions.map((session) => {
      const title = titleOf(session.title)
      if (title !== undefined) titles.set(session.sessionId, title)
      const updatedAt = session.updatedAt ?? 0
      return {
        key: `opencode:${session.sessionId}`,
        agent: 'opencode',
        sessionId: session.sessionId,
        path: session.path,
        process: 'none',
        ...(session.directory !== undefined ? { cwd: session.directory } : {}),
        stamp: { ino: 0, size: 0, mtimeMs: updatedAt, ctimeMs: digest(`${DISK_MARK}|${updatedAt}|${session.title ?? ''}`) },
        // The reason is in the mark, so a change of it (refused → 401) re-observes the session.
        liveMark: `${DISK_MARK}|${downDetail}`,
      }
    })
  }

  async function scan(): Promise<FoundSession[]> {
    try {
      const found = await scanServer()
      if (down === 'noted') note(`OpenCode at ${client.baseUrl} answers again: its sessions' live states are read from it`)
      down = 'no'
      return found
    } catch (error) {
      if (options.dataDir === undefined) throw error
      const refused = OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_UNREACHABLE'
      downDetail = `the OpenCode server at ${client.baseUrl} ${refused ? 'is not reachable' : 'cannot be read (see warnings)'}; ${DISK_DETAIL}`
      if (down === 'no') {
        down = options.quietWhenDown === true && refused ? 'quiet' : 'noted'
        const unsent = options.auth === null && OpencodeServerError.isInstance(error) && error.code === 'OPENCODE_UNAUTHORIZED' ? ' (no password was sent: credentials go only to a URL named explicitly, e.g. `chatrail sessions --opencode-url <url>`)' : ''
        if (down === 'noted') note(`OpenCode at ${client.baseUrl}: ${describe(error)}${unsent}; its sessions are listed from ${options.dataDir}, state unknown, until it answers`)
      }
      return scanDisk(options.dataDir)
    }
  }

  function createReader(found: FoundSession): SessionReader {
    let chat: AgentChat = composeChat(createSessionModel(found.sessionId))
    let firstPrompt: string | undefined
    /** The last server observation's activity mark and the update time it was read at: a switch to the files is not activity. */
    let served: { mark: string; updatedAt: number | undefined } | undefined
    return {
      async read(_gate, current) {
        if (fromDisk(current)) return // inventory only: the history is not read while the server is down
        chat = await limit(() => readChat({ baseUrl: client.baseUrl, sessionId: current.sessionId, ...(options.auth !== undefined ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000, dataDir: false }))
        firstPrompt ??= chat.messages.find((message) => message.kind === 'text' && message.role === 'user')?.text?.trim().slice(0, 200)
      },
      observe(current) {
        const updatedAt = current.stamp?.mtimeMs
        const transcriptAt = updatedAt !== undefined && updatedAt > 0 ? { transcriptAt: updatedAt } : {}
        if (fromDisk(current)) return diskObservation(current, transcriptAt, served?.updatedAt === updatedAt ? served?.mark : undefined)
        const last = chat.messages.at(-1)
        const activityMark = `${messageMark(last, updatedAt)}|${chat.state}|${chat.status}|${chat.detail ?? ''}`
        served = { mark: activityMark, updatedAt }
        const title = titles.get(current.sessionId) ?? firstPrompt
        return { ...observeChat(chat), ...(title !== undefined ? { title } : {}), ...transcriptAt, activityMark }
      },
    }
  }

  function fromDisk(current: FoundSession): boolean {
    return current.liveMark?.startsWith(`${DISK_MARK}|`) === true
  }

  function diskObservation(current: FoundSession, transcriptAt: { transcriptAt?: number }, servedMark: string | undefined): SessionObservation {
    const title = titles.get(current.sessionId)
    return {
      verdict: { state: 'needs_input', status: 'unknown', detail: downDetail },
      ...(title !== undefined ? { title } : {}),
      ...transcriptAt,
      activityMark: servedMark ?? `${DISK_MARK}@${transcriptAt.transcriptAt ?? ''}`,
    }
  }

  return { agent: 'opencode', watchRoots: () => [], scan, createReader }
}

/**
 * A session as `GET /session` lists it, found for the monitor (process evidence `none` until the
 * server's status says otherwise), with its last update (epoch ms).
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

/** OpenCode names an untitled session "New session - <ISO time>": not what it is about. */
function titleOf(title: string | undefined): string | undefined {
  return title !== undefined && title !== '' && !title.startsWith('New session - ') ? title : undefined
}

/** Runs at most `size` tasks at once, the rest in arrival order. */
function createLimiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: Array<() => void> = []
  return async (task) => {
    if (running >= size) await new Promise<void>((admit) => waiting.push(admit))
    else running += 1
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next !== undefined) next()
      else running -= 1
    }
  }
}

/** A number that changes with the text (the first 48 bits of its SHA-256). */
function digest(text: string): number {
  return Number.parseInt(createHash('sha256').update(text).digest('hex').slice(0, 12), 16)
}

function describe(error: unknown): string {
  if (OpencodeServerError.isInstance(error)) return `${error.message}${error.hint ? ` (${error.hint})` : ''}`
  return error instanceof Error ? error.message : String(error)
}

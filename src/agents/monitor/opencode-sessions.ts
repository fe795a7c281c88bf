import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { MonitorEntry } from './monitor-entry.js'
import { buildEntry } from './session-entry.js'
import { observeChat } from './session-source.js'
import type { FoundSession } from './session-source.js'
import { deriveSessionState } from './session-state.js'
import { listedSession } from './opencode-source.js'
import { createOpencodeClient } from '../opencode/http-client.js'
import type { OpencodeAuth } from '../opencode/http-client.js'
import { OpencodeServerError } from '../opencode/opencode-errors.js'
import { readChat } from '../opencode/read-chat.js'
import { listDatabaseSessions } from '../opencode/database.js'
import { DISK_DETAIL } from '../opencode/disk-chat.js'
import { listStoredSessions } from '../opencode/legacy-storage.js'
import type { StoredSession } from '../opencode/legacy-storage.js'
import { isRecord, stringField } from '../process/json-value.js'

/**
 * OpenCode's sessions for `chatrail sessions --opencode-url`: the server's inventory
 * (`GET /session`) and each session's state from the server itself (`readChat`: messages, status,
 * pending permissions and questions), through the monitor's idle-vs-ended rules. Seed 002: the
 * server's status is preferred over any timestamp. The server lists every session of its project,
 * old ones included, so it is not "a live process" for each of them (process evidence `none`): a
 * finished turn is terminal, a busy or waiting one is what the server says. A server that cannot
 * be read is a warning, never a failure; then, with `dataDir`, the sessions OpenCode keeps on disk
 * are listed instead (`opencode.db`, then the legacy JSON storage), every one `unknown` (seed 002:
 * disk-only sessions are unknown).
 */

export interface OpencodeSessionsOptions {
  baseUrl: string
  auth?: OpencodeAuth
  now: number
  liveWindowMs: number
  endedWindowMs: number
  /** Sessions read at once (default 4). */
  concurrency?: number
  timeoutMs?: number
  /** OpenCode's data folder (`~/.local/share/opencode`): the inventory fallback when the server cannot be read. */
  dataDir?: string
}

export async function listOpencodeSessions(options: OpencodeSessionsOptions): Promise<{ entries: MonitorEntry[]; warnings: string[] }> {
  const client = createOpencodeClient({ baseUrl: options.baseUrl, ...(options.auth ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000 })
  let listed: unknown
  try {
    listed = await client.get('/session')
  } catch (error) {
    const warning = `OpenCode at ${client.baseUrl}: ${describe(error)}`
    return options.dataDir === undefined ? { entries: [], warnings: [warning] } : fromDisk(options.dataDir, options, warning)
  }
  const sessions = Array.isArray(listed) ? listed.filter(isRecord) : []
  const entries: MonitorEntry[] = []
  const warnings: string[] = []
  const queue = [...sessions]
  const worker = async (): Promise<void> => {
    for (let session = queue.shift(); session !== undefined; session = queue.shift()) {
      const listed = listedSession(session, client.baseUrl)
      if (listed === undefined) continue
      const { found, updatedAt: lastActivityAt } = listed
      const sessionId = found.sessionId
      try {
        const chat = await readChat({ baseUrl: client.baseUrl, sessionId, ...(options.auth ? { auth: options.auth } : {}), timeoutMs: options.timeoutMs ?? 5000 })
        const observation = { ...observeChat(chat), activityMark: '', ...titleOf(session) }
        const state = deriveSessionState({ verdict: observation.verdict, lastActivityAt, now: options.now, process: 'none', liveWindowMs: options.liveWindowMs, endedWindowMs: options.endedWindowMs })
        entries.push(buildEntry(found, observation, state, lastActivityAt, undefined))
      } catch (error) {
        warnings.push(`OpenCode session ${sessionId}: ${describe(error)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker))
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return { entries, warnings }
}

/** The legacy storage's sessions, each `unknown` through the same rules (a long-silent one reads presumed ended). */
async function fromDisk(dataDir: string, options: OpencodeSessionsOptions, warning: string): Promise<{ entries: MonitorEntry[]; warnings: string[] }> {
  const warnings = [warning]
  const dbPath = join(dataDir, 'opencode.db')
  let inDatabase: StoredSession[] = []
  if (existsSync(dbPath)) {
    try {
      inDatabase = await listDatabaseSessions(dbPath)
    } catch (error) {
      warnings.push(describe(error))
    }
  }
  const legacy = await listStoredSessions(dataDir)
  warnings.push(...legacy.warnings)
  const known = new Set(inDatabase.map((session) => session.sessionId))
  const sessions = [...inDatabase, ...legacy.sessions.filter((session) => !known.has(session.sessionId))]
  const entries = sessions.map((session) => {
    const found: FoundSession = { key: `opencode:${session.sessionId}`, agent: 'opencode', sessionId: session.sessionId, path: session.path, process: 'none', ...(session.directory !== undefined ? { cwd: session.directory } : {}) }
    const verdict = { state: 'needs_input' as const, status: 'unknown' as const, detail: DISK_DETAIL }
    const lastActivityAt = session.updatedAt ?? 0
    const state = deriveSessionState({ verdict, lastActivityAt, now: options.now, process: 'none', liveWindowMs: options.liveWindowMs, endedWindowMs: options.endedWindowMs })
    return buildEntry(found, { verdict, activityMark: '', ...titleOf(session) }, state, lastActivityAt, undefined)
  })
  return { entries, warnings }
}

function titleOf(session: object): { title?: string } {
  const title = stringField(session, 'title')
  // OpenCode names an untitled session "New session - <ISO time>": not what it is about.
  return title !== undefined && !title.startsWith('New session - ') ? { title } : {}
}

function describe(error: unknown): string {
  if (OpencodeServerError.isInstance(error)) return `${error.message}${error.hint ? ` (${error.hint})` : ''}`
  return error instanceof Error ? error.message : String(error)
}

import { existsSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { findDatabaseSession, listDatabaseSessions, readDatabaseChat } from './database.js'
import { findStoredSession, listStoredSessions, readStoredChat } from './legacy-storage.js'
import type { StoredSession } from './legacy-storage.js'

/**
 * Where OpenCode keeps its files when no server can be asked (seed 002: `opencode.db` first, then
 * the legacy JSON storage). History and inventory only: the run state lives in the server's memory,
 * so whatever is read here is `unknown`.
 */

/** OpenCode's data folder: `$XDG_DATA_HOME/opencode`, else `<home>/.local/share/opencode` (as OpenCode itself resolves it). */
export function defaultOpencodeDataDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env.XDG_DATA_HOME
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.local', 'share'), 'opencode')
}

/** One session's history from the data folder (`opencode.db`, else the legacy files), or `undefined` when neither has it. */
export async function readDiskSession(dataDir: string, sessionId: string): Promise<AgentChat | undefined> {
  const dbPath = join(dataDir, 'opencode.db')
  if (existsSync(dbPath) && (await findDatabaseSession(dbPath, sessionId)) !== undefined) return readDatabaseChat({ dbPath, sessionId })
  if ((await findStoredSession(dataDir, sessionId)) !== undefined) return readStoredChat({ dataDir, sessionId })
  return undefined
}

/**
 * Every session the data folder knows: `opencode.db`'s, then the legacy files' not already in it,
 * then those only `storage/session_diff/<sessionID>.json` names (seed 002's last fallback: OpenCode
 * writes a session's file diffs there, so it knows the id and, by the file's mtime, when; nothing
 * else), newest first. A database that cannot be read is a warning (the files are still listed).
 */
export async function listDiskSessions(dataDir: string): Promise<{ sessions: StoredSession[]; warnings: string[] }> {
  const warnings: string[] = []
  const dbPath = join(dataDir, 'opencode.db')
  let inDatabase: StoredSession[] = []
  if (existsSync(dbPath)) {
    try {
      inDatabase = await listDatabaseSessions(dbPath)
    } catch (error) {
      warnings.push(error instanceof Error ? error.message : String(error))
    }
  }
  const legacy = await listStoredSessions(dataDir)
  warnings.push(...legacy.warnings)
  const known = new Set(inDatabase.map((session) => session.sessionId))
  const sessions = [...inDatabase, ...legacy.sessions.filter((session) => !known.has(session.sessionId))]
  for (const session of sessions) known.add(session.sessionId)
  sessions.push(...(await listDiffSessions(dataDir)).filter((session) => !known.has(session.sessionId)))
  sessions.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0))
  return { sessions, warnings }
}

/** `storage/session_diff/ses_….json`: a session id and the file's mtime (a missing folder: none). */
async function listDiffSessions(dataDir: string): Promise<StoredSession[]> {
  const dir = join(dataDir, 'storage', 'session_diff')
  let files: string[]
  try {
    files = await readdir(dir)
  } catch {
    return [] // no folder (or not readable): nothing to add to the inventory
  }
  const sessions: StoredSession[] = []
  for (const file of files.filter((name) => /^ses[A-Za-z0-9_-]{1,128}\.json$/.test(name)).sort()) {
    const path = join(dir, file)
    const updatedAt = await stat(path).then(
      (info) => info.mtimeMs,
      () => undefined,
    )
    if (updatedAt !== undefined) sessions.push({ sessionId: file.slice(0, -'.json'.length), projectId: '', updatedAt: Math.floor(updatedAt), path })
  }
  return sessions
}

import type { AgentChat } from '../../contract/agent-chat.js'
import { ChatrailError } from '../../contract/errors.js'
import { isRecord } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'
import type { StoredSession } from './legacy-storage.js'
import { diskChat } from './disk-chat.js'

/**
 * OpenCode's database (`<data>/opencode.db`, SQLite in WAL mode since 1.x), read-only, as the disk
 * fallback when no server runs: sessions, messages and parts, never run state (seed 002: every
 * state `unknown`). Read with `better-sqlite3` (an optional peer dependency, loaded only here): a
 * maintained SQLite that reads the WAL, so what a running OpenCode wrote a moment ago is seen too.
 * The connection is `readonly`; nothing is ever written.
 *
 * Tables (1.18.33): `session(id, project_id, directory, title, time_created, time_updated, …)`,
 * `message(id, session_id, time_created, data)`, `part(id, message_id, session_id, data)`; `data` is
 * the API's object without its ids, which the columns carry.
 */

interface Statement {
  all: (...params: unknown[]) => unknown[]
}
interface SqliteDatabase {
  prepare: (sql: string) => Statement
  close: () => void
}
type SqliteConstructor = new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteDatabase

let loaded: SqliteConstructor | undefined

/** The optional peer, loaded on first use (a variable specifier: chatrail ships no types for it). */
const SQLITE_MODULE = 'better-sqlite3'

async function sqlite(): Promise<SqliteConstructor> {
  if (loaded) return loaded
  try {
    const module = (await import(SQLITE_MODULE)) as { default?: SqliteConstructor } & SqliteConstructor
    loaded = module.default ?? module
    return loaded
  } catch (cause) {
    throw new ChatrailError({
      code: 'OPENCODE_SQLITE_MISSING',
      message: "Reading OpenCode's database needs better-sqlite3, which is not installed.",
      hint: 'npm i better-sqlite3 (an optional peer of chatrail/opencode), or read a running server with readChat.',
      cause,
    })
  }
}

async function withDatabase<T>(path: string, use: (db: SqliteDatabase) => T): Promise<T> {
  const Database = await sqlite()
  let db: SqliteDatabase | undefined
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
    return use(db)
  } catch (cause) {
    // A missing file, a file that is not SQLite, a schema of another version: one error naming the file.
    throw new ChatrailError({ code: 'OPENCODE_DB_UNREADABLE', message: `Cannot read OpenCode's database ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, hint: 'It is <data>/opencode.db, e.g. ~/.local/share/opencode/opencode.db (OpenCode 1.x).', cause })
  } finally {
    db?.close()
  }
}

/** Every session in the database, newest first (the same shape as the legacy storage's list). */
export function listDatabaseSessions(dbPath: string): Promise<StoredSession[]> {
  return withDatabase(dbPath, (db) =>
    db
      .prepare(`${SESSION_COLUMNS} ORDER BY time_updated DESC, id`)
      .all()
      .filter(isRecord)
      .map((row) => storedSession(row, dbPath)),
  )
}

const SESSION_COLUMNS = 'SELECT id, project_id, title, directory, time_updated FROM session'

function storedSession(row: JsonRecord, dbPath: string): StoredSession {
  return {
    sessionId: String(row.id),
    projectId: String(row.project_id),
    ...(typeof row.title === 'string' ? { title: row.title } : {}),
    ...(typeof row.directory === 'string' ? { directory: row.directory } : {}),
    ...(typeof row.time_updated === 'number' ? { updatedAt: row.time_updated } : {}),
    path: `${dbPath}#session/${String(row.id)}`,
  }
}

/** One session's row, or `undefined` when the database does not have it. */
export function findDatabaseSession(dbPath: string, sessionId: string): Promise<StoredSession | undefined> {
  return withDatabase(dbPath, (db) => db.prepare(`${SESSION_COLUMNS} WHERE id = ?`).all(sessionId).filter(isRecord).map((row) => storedSession(row, dbPath))[0])
}

/** One session's history from the database: its messages, `needs_input` / `unknown` (idle when it has none). */
export async function readDatabaseChat(input: { dbPath: string; sessionId: string }): Promise<AgentChat> {
  const warnings: string[] = []
  const messages = await withDatabase(input.dbPath, (db) => {
    const parts = new Map<string, JsonRecord[]>()
    for (const row of db.prepare('SELECT id, message_id, session_id, data FROM part WHERE session_id = ? ORDER BY id').all(input.sessionId).filter(isRecord)) {
      const data = parse(row.data, `part ${String(row.id)}`, warnings)
      if (!data) continue
      const messageId = String(row.message_id)
      parts.set(messageId, [...(parts.get(messageId) ?? []), { ...data, id: String(row.id), messageID: messageId, sessionID: input.sessionId }])
    }
    return db
      .prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY id')
      .all(input.sessionId)
      .filter(isRecord)
      .flatMap((row) => {
        const data = parse(row.data, `message ${String(row.id)}`, warnings)
        const id = String(row.id)
        return data ? [{ info: { ...data, id, sessionID: input.sessionId }, parts: parts.get(id) ?? [] }] : []
      })
  })
  return diskChat(input.sessionId, messages, warnings)
}

function parse(text: unknown, what: string, warnings: string[]): JsonRecord | undefined {
  if (typeof text === 'string') {
    try {
      const value: unknown = JSON.parse(text)
      if (isRecord(value)) return value
    } catch {
      // reported below
    }
  }
  warnings.push(`${what}: its data is not a JSON object, skipped`)
  return undefined
}

import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentChat } from '../../contract/agent-chat.js'
import { isRecord, recordField, stringField } from '../process/json-value.js'
import type { JsonRecord } from '../process/json-value.js'
import { diskChat } from './disk-chat.js'

/**
 * OpenCode's legacy JSON storage (before `opencode.db`), read-only, as the disk fallback when no
 * server runs. The layout is the one OpenCode 1.18.33's own migration code reads and writes
 * (`Storage.migration.*` in the binary), under its data folder (`$XDG_DATA_HOME/opencode`, by
 * default `~/.local/share/opencode`):
 *
 *   storage/session/<projectID>/<sessionID>.json   the session info (id, title, directory, time)
 *   storage/message/<sessionID>/<messageID>.json   a message info (the API's `Message`)
 *   storage/part/<messageID>/<partID>.json         a part (the API's `Part`)
 *
 * The files hold history, not run state: whether a session is busy, retrying or waiting on a
 * permission lives only in the server's memory. So every chat read from here is `status:
 * 'unknown'` (seed 002: disk-only sessions are unknown), with the messages the files hold. A file
 * that is not JSON is skipped and named in `warnings`; a missing folder is an empty inventory.
 */

export interface StoredSession {
  sessionId: string
  projectId: string
  title?: string
  directory?: string
  /** Epoch ms. */
  updatedAt?: number
  path: string
}

/** Every session in `<dataDir>/storage/session/*\/*.json`, newest first. */
export async function listStoredSessions(dataDir: string): Promise<{ sessions: StoredSession[]; warnings: string[] }> {
  const root = join(dataDir, 'storage', 'session')
  const warnings: string[] = []
  const sessions: StoredSession[] = []
  for (const projectId of await names(root)) {
    for (const file of (await names(join(root, projectId))).filter((name) => name.endsWith('.json'))) {
      const path = join(root, projectId, file)
      const info = await readJson(path, warnings)
      const sessionId = stringField(info, 'id') ?? file.slice(0, -'.json'.length)
      const time = recordField(info, 'time')
      const updated = time?.updated ?? time?.created
      const title = stringField(info, 'title')
      const directory = stringField(info, 'directory')
      sessions.push({
        sessionId,
        projectId,
        ...(title !== undefined ? { title } : {}),
        ...(directory !== undefined ? { directory } : {}),
        ...(typeof updated === 'number' ? { updatedAt: updated } : {}),
        path,
      })
    }
  }
  sessions.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || (a.sessionId < b.sessionId ? -1 : 1))
  return { sessions, warnings }
}

/** One session of the legacy files by id, or `undefined` (a session file, or at least its messages folder). */
export async function findStoredSession(dataDir: string, sessionId: string): Promise<StoredSession | undefined> {
  const listed = (await listStoredSessions(dataDir)).sessions.find((session) => session.sessionId === sessionId)
  if (listed !== undefined) return listed
  const messageDir = join(dataDir, 'storage', 'message', sessionId)
  return (await names(messageDir)).length > 0 ? { sessionId, projectId: '', path: messageDir } : undefined
}

/** One session's history from the legacy files: its messages, `needs_input` / `unknown` (or idle when empty). */
export async function readStoredChat(input: { dataDir: string; sessionId: string }): Promise<AgentChat> {
  const warnings: string[] = []
  const messageDir = join(input.dataDir, 'storage', 'message', input.sessionId)
  const messages: Array<{ info: JsonRecord; parts: JsonRecord[] }> = []
  for (const file of (await names(messageDir)).filter((name) => name.endsWith('.json'))) {
    const info = await readJson(join(messageDir, file), warnings)
    const id = stringField(info, 'id')
    if (!info || id === undefined) continue
    const partDir = join(input.dataDir, 'storage', 'part', id)
    const parts: JsonRecord[] = []
    for (const partFile of (await names(partDir)).filter((name) => name.endsWith('.json'))) {
      const part = await readJson(join(partDir, partFile), warnings)
      if (part) parts.push(part)
    }
    messages.push({ info, parts })
  }
  return diskChat(input.sessionId, messages, warnings)
}

async function names(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort()
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'ENOENT' || code === 'ENOTDIR') return []
    throw error
  }
}

async function readJson(path: string, warnings: string[]): Promise<JsonRecord | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if (code === 'ENOENT') return undefined // removed between the listing and the read
    throw error
  }
  try {
    const value: unknown = JSON.parse(text)
    if (isRecord(value)) return value
  } catch {
    // reported below
  }
  warnings.push(`${path}: not a JSON object, skipped`)
  return undefined
}

import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { isAgentId } from '../../runstate/agent-id.js'
import { parseRolloutFileName } from '../rollout-file-name.js'

/**
 * The rollout file of one thread: `<codexHome>/sessions/YYYY/MM/DD/rollout-<local time>-<thread id>.jsonl`
 * (or `.jsonl.zst`). The id is known from `thread.started`, so the file is found by name, not by
 * "newest in this cwd", which another Codex run in the same directory could win. A resumed thread
 * keeps appending to its original file, in the folder of the day it started. Newest folders are
 * searched first; `undefined` until the CLI created the file.
 */
export function findRolloutByThread(codexHome: string, threadId: string): string | undefined {
  const sessions = join(codexHome, 'sessions')
  if (!existsSync(sessions)) return undefined
  // Only a UUID can be a thread id: anything else names no rollout (and is never a path part).
  if (!isAgentId(threadId)) return undefined
  return search(sessions, threadId.toLowerCase(), 0)
}

function search(dir: string, threadId: string, depth: number): string | undefined {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return undefined
  }
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name)
  const plain = files.find((name) => parseRolloutFileName(name)?.id.toLowerCase() === threadId && !name.endsWith('.zst'))
  const match = plain ?? files.find((name) => parseRolloutFileName(name)?.id.toLowerCase() === threadId)
  if (match !== undefined) return join(dir, match)
  if (depth >= 3) return undefined
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort().reverse()
  for (const folder of folders) {
    const found = search(join(dir, folder), threadId, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

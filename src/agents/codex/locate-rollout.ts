import { readdir, realpath } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { streamFile } from '../runstate/file-stream.js'
import { classifyRolloutLine, stringField } from './rollout-line.js'
import { parseRolloutFileName } from './rollout-file-name.js'

/**
 * Finds the rollout of the newest Codex thread started in `cwd`: scans
 * `<codexHome>/sessions/YYYY/MM/DD/` newest first (date folders and file names are the writer's
 * local time, so they are only sorted, never compared with the UTC times inside the files) and
 * returns the first file whose `session_meta.payload.cwd` is `cwd`. A `/new` in the TUI writes a
 * new file, which is found first from then on. Rollouts are created lazily at the first turn, so
 * an idle TUI has none yet: a miss is `undefined`, never an error.
 */
export interface LocateRolloutInput {
  /** The agent's working directory. */
  cwd: string
  /** The user's home; `""` is a miss (the reader never falls back to the process's own home). */
  home: string
  /** `CODEX_HOME`, when it is not `<home>/.codex`. */
  codexHome?: string
}

export interface LocatedRollout {
  path: string
  /** `session_meta.payload.id`, else the UUID at the end of the file name. */
  sessionId: string
}

/** `session_meta` of a compact 2025 file is ~0.5 KB, of a current one ~20 KB; never read past this. */
const HEAD_LIMIT = 1024 * 1024

export async function locateRollout(input: LocateRolloutInput): Promise<LocatedRollout | undefined> {
  const codexHome = input.codexHome ?? (input.home === '' ? undefined : join(input.home, '.codex'))
  if (codexHome === undefined || input.cwd === '') return undefined
  const wanted = await canonical(input.cwd)
  for (const file of await rolloutsNewestFirst(join(codexHome, 'sessions'))) {
    const meta = await readSessionMeta(file.path, file.compressed)
    const cwd = meta === undefined ? undefined : stringField(meta, 'cwd')
    if (cwd === undefined || (await canonical(cwd)) !== wanted) continue
    return { path: file.path, sessionId: stringField(meta ?? {}, 'id') ?? file.id }
  }
  return undefined
}

export interface RolloutOrigin {
  /** `session_meta.payload.id`, else the UUID at the end of the file name. */
  sessionId: string
  /** `session_meta.payload.cwd`: where the thread was started. */
  cwd?: string
}

/**
 * Who a rollout belongs to, from its `session_meta` first line (plain or `.zst`; never more than
 * 1 MiB is read), for callers that list threads (the session monitor). `undefined` when neither
 * the first line nor the file name names a thread.
 */
export async function readRolloutOrigin(path: string): Promise<RolloutOrigin | undefined> {
  const named = parseRolloutFileName(basename(path))
  const meta = await readSessionMeta(path, named?.compressed ?? path.endsWith('.zst'))
  const sessionId = (meta === undefined ? undefined : stringField(meta, 'id')) ?? named?.id
  if (sessionId === undefined) return undefined
  const cwd = meta === undefined ? undefined : stringField(meta, 'cwd')
  return { sessionId, ...(cwd === undefined ? {} : { cwd }) }
}

interface Candidate {
  path: string
  id: string
  compressed: boolean
}

/** Date folders newest first, then names newest first; the flat early layout last. */
async function rolloutsNewestFirst(sessions: string): Promise<Candidate[]> {
  const found: Candidate[] = []
  for (const year of await names(sessions, /^\d{4}$/)) {
    for (const month of await names(join(sessions, year), /^\d{2}$/)) {
      for (const day of await names(join(sessions, year, month), /^\d{2}$/)) {
        found.push(...(await rolloutsIn(join(sessions, year, month, day))))
      }
    }
  }
  found.push(...(await rolloutsIn(sessions)))
  return found
}

async function rolloutsIn(dir: string): Promise<Candidate[]> {
  const entries = await names(dir, /^rollout-/)
  const plain = new Set(entries.filter((name) => name.endsWith('.jsonl')))
  const candidates: Candidate[] = []
  for (const name of entries) {
    const parsed = parseRolloutFileName(name)
    // Both forms present: the plain file is the live one.
    if (!parsed || (parsed.compressed && plain.has(name.slice(0, -'.zst'.length)))) continue
    candidates.push({ path: join(dir, name), id: parsed.id, compressed: parsed.compressed })
  }
  return candidates
}

/** Entries matching `pattern`, sorted descending; a missing folder has none. */
async function names(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    const entries = await readdir(dir)
    return entries.filter((name) => pattern.test(name)).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
  } catch {
    return []
  }
}

/** The first line's `session_meta` payload; `undefined` for anything else (junk, another format). */
async function readSessionMeta(path: string, compressed: boolean): Promise<Record<string, unknown> | undefined> {
  const head = await readHead(path, compressed)
  const nl = head.indexOf(0x0a)
  if (nl === -1) return undefined
  try {
    const line = classifyRolloutLine(JSON.parse(head.subarray(0, nl).toString('utf8').replace(/^\uFEFF/, '')))
    return line.kind === 'session_meta' ? line.meta : undefined
  } catch {
    return undefined
  }
}

/**
 * Bytes from the start of the file up to its first newline (or `HEAD_LIMIT`), decompressed if
 * needed. The file is closed before this resolves: the monitor counts this read against its
 * open-file bound, and a stream closed after its caller moved on would hold a descriptor past it.
 */
async function readHead(path: string, compressed: boolean): Promise<Buffer> {
  const parts: Buffer[] = []
  let total = 0
  try {
    await streamFile(path, { compressed, maxBytes: HEAD_LIMIT }, (chunk) => {
      parts.push(Buffer.from(chunk))
      total += chunk.length
      return !chunk.includes(0x0a) && total < HEAD_LIMIT
    })
  } catch {
    // unreadable: whatever was read decides
  }
  return Buffer.concat(parts)
}

async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path)
  } catch {
    return resolve(path)
  }
}

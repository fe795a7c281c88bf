import type { Dirent } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import type { AgentChat, AgentKind, AgentMessage } from '../../contract/agent-chat.js'
import type { Dialog } from '../../contract/dialog.js'
import { isWindowNote } from '../runstate/read-window.js'
import type { FileGate } from './file-gate.js'
import type { ProcessEvidence, ReaderVerdict } from './session-state.js'

/**
 * What the monitor needs from one agent: where its sessions are, and a reader per session. Each
 * agent's source lives beside the others (claude-sessions.ts, codex-sessions.ts) and only calls
 * its agent's public reader API; the monitor core never sees an agent's raw records.
 */
export interface SessionSource {
  readonly agent: AgentKind
  /** Directories whose changes should wake the monitor (file-system events). */
  watchRoots: () => string[]
  /**
   * The sessions present now: directory listings, stats and (Claude) small registry files only. A
   * folder that cannot be listed (e.g. `EACCES`) is skipped and pushed to `skipped` as
   * `"<path> (<code>)"`, so one unreadable folder never hides the others.
   */
  scan: (gate: FileGate, skipped: string[]) => Promise<FoundSession[]>
  /** A reader for one session, created once and kept while the session is listed. */
  createReader: (found: FoundSession) => SessionReader
}

/**
 * Identity of a file's bytes as far as tailing goes: same inode, size, mtime and ctime → nothing
 * new. ctime is there because a writer can set mtime back (utimes) but not ctime: a same-size
 * rewrite in place still changes the stamp, and the tail then sees the rewrite.
 */
export interface FileStamp {
  ino: number
  size: number
  mtimeMs: number
  ctimeMs: number
}

export interface FoundSession {
  key: string
  agent: AgentKind
  sessionId: string
  /** The transcript; for a live process that has not written one yet, where it will be. */
  path: string
  /** `undefined` while the file does not exist. */
  stamp?: FileStamp
  process: ProcessEvidence
  pid?: number
  /** The working directory the source knows without reading the transcript (a live process's). */
  cwd?: string
  /** When the session began, if the source knows (a live process's start time). */
  startedAt?: number
  /**
   * Changes whenever the source's live evidence for the session changes (Claude: the registry
   * entry it composes with); with the file unchanged too, the last observation still holds.
   */
  liveMark?: string
}

export interface SessionObservation {
  verdict: ReaderVerdict
  pendingDialog?: Dialog
  lastMessage?: AgentMessage
  cwd?: string
  title?: string
  /** Epoch ms of the newest state-bearing line, by the writer's clock. */
  transcriptAt?: number
  /** Changes exactly when a state-bearing line was folded (metadata lines leave it alone). */
  activityMark: string
  /** The reader went through windows (a huge file): its note, which the monitor warns of once. */
  windowNote?: string
}

export interface SessionReader {
  /**
   * Folds what was appended since the previous call, through `gate` (one descriptor at a time,
   * closed before it resolves). Called only when the file's stamp changed. Throws what the agent's
   * reader throws (`TranscriptGoneError`, I/O errors); the monitor records it.
   */
  read: (gate: FileGate, found: FoundSession) => Promise<void>
  /** The verdict now, from the last read and the source's current process evidence. No I/O. */
  observe: (found: FoundSession) => SessionObservation
}

/**
 * Entries of a directory through the gate; a missing directory has none. Any other failure
 * (`EACCES`, `EIO`, …) is recorded in `skipped` as `"<dir> (<code>)"` and reads as empty.
 */
export async function listDirectory(gate: FileGate, dir: string, skipped: string[]): Promise<Dirent[]> {
  try {
    return await gate.run(() => readdir(dir, { withFileTypes: true }))
  } catch (error) {
    if (isMissing(error)) return []
    const code = (error as { code?: unknown } | null)?.code
    skipped.push(`${dir} (${typeof code === 'string' ? code : 'unreadable'})`)
    return []
  }
}

/** The stamp of a file, or `undefined` when it does not exist (a stat opens no descriptor). */
export async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const info = await stat(path)
    return info.isFile() ? { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs } : undefined
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}

export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs
}

export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** The newest message's seq and the transcript time: the part of an activity mark every agent shares. */
export function messageMark(lastMessage: AgentMessage | undefined, transcriptAt: number | undefined): string {
  return `${lastMessage?.seq ?? 0}@${transcriptAt ?? ''}`
}

/**
 * The agent-neutral part of an observation, from an `AgentChat`-shaped reading: the verdict, the
 * pending dialog (the live one, else an unanswered dialog that is the chat's last message while it
 * is in `question`; system notes after it, such as a skipped over-cap line's placeholder, do not
 * count), and the newest message.
 */
export function observeChat(chat: Pick<AgentChat, 'state' | 'status' | 'detail' | 'pendingDialog' | 'messages'> & { warnings?: readonly string[] }): Pick<SessionObservation, 'verdict' | 'pendingDialog' | 'lastMessage' | 'windowNote'> {
  const lastMessage = chat.messages.at(-1)
  const windowNote = chat.warnings?.find(isWindowNote)
  const lastDialog = chat.state === 'question' ? chat.messages.findLast((message) => message.kind !== 'lifecycle')?.dialog : undefined
  const open = lastDialog !== undefined && lastDialog.outcome === undefined ? lastDialog : undefined
  const pendingDialog = chat.pendingDialog ?? open
  return {
    verdict: { state: chat.state, status: chat.status, ...(chat.detail !== undefined ? { detail: chat.detail } : {}) },
    ...(pendingDialog !== undefined ? { pendingDialog } : {}),
    ...(lastMessage !== undefined ? { lastMessage } : {}),
    ...(windowNote !== undefined ? { windowNote } : {}),
  }
}

import { basename } from 'node:path'
import { markdownTitle } from '../../contract/markdown-title.js'
import { attentionOf } from './monitor-entry.js'
import type { Attention, MonitorEntry } from './monitor-entry.js'
import { shorten } from './session-activity.js'

/**
 * The table view of entries, shared by `chatrail sessions` and its Ink watch view: one row per
 * session, the ones that need a person first. Pure.
 */
export interface SessionRow {
  key: string
  agent: 'claude' | 'codex' | 'opencode'
  /** The working directory's last segment, `-` when unknown. */
  project: string
  title: string
  state: string
  /** What the session waits for from a person (the dialog, the prompt), `''` when nothing. */
  waitingFor: string
  /** Why a finished session did not complete (the error, the stop reason), `''` when nothing. */
  detail: string
  /** `12s ago`, `5m ago`, `3h ago`, `2d ago`. */
  lastActivity: string
  attention: Attention
}

const RANK: Record<Attention, number> = { needs_you: 0, finished: 1, active: 2, quiet: 3 }

/**
 * Pure. Needs-you first, then finished, active, quiet; within a group the most recent activity
 * first; ties by key.
 */
export function sortByAttention(entries: readonly MonitorEntry[]): MonitorEntry[] {
  return [...entries].sort((a, b) => RANK[attentionOf(a)] - RANK[attentionOf(b)] || b.lastActivityAt - a.lastActivityAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
}

/** Pure. Rows in `sortByAttention` order; `now` dates the last activity. */
export function sessionRows(entries: readonly MonitorEntry[], now: number): SessionRow[] {
  return sortByAttention(entries).map((entry) => ({
    key: entry.key,
    agent: entry.agent === 'claude-code' ? 'claude' : entry.agent,
    project: entry.cwd === undefined || entry.cwd === '' ? '-' : basename(entry.cwd),
    title: shorten(entry.title ?? '', 50),
    state: stateLabel(entry),
    waitingFor: shorten(waitingFor(entry), 60),
    detail: shorten(detailOf(entry), 60),
    lastActivity: formatAge(now - entry.lastActivityAt),
    attention: attentionOf(entry),
  }))
}

/** Pure. `question`, `waiting for approval`, `presumed ended`, or the status in words. */
export function stateLabel(entry: Pick<MonitorEntry, 'state' | 'status' | 'endedBy'>): string {
  if (entry.state === 'question') return 'question'
  if (entry.endedBy === 'silence') return 'presumed ended'
  return entry.status.replace(/_/g, ' ')
}

/**
 * Only what is awaited: an error is never something a session waits for (it goes in `detail`).
 * A plan is named by its title (`plan: Reship the order`), not its raw markdown; a question by its
 * first line, with how many more questions the dialog asks.
 */
function waitingFor(entry: MonitorEntry): string {
  if (attentionOf(entry) !== 'needs_you') return ''
  const dialog = entry.pendingDialog
  if (dialog === undefined) return entry.detail ?? ''
  if (dialog.kind === 'plan') return `plan: ${markdownTitle(dialog.prompt) || 'untitled'}`
  const question = dialog.prompt.split('\n').find((line) => line.trim() !== '')?.trim() ?? ''
  const more = (dialog.questions?.length ?? 1) - 1
  return more > 0 ? `${question} (+${more} more)` : question
}

function detailOf(entry: MonitorEntry): string {
  return attentionOf(entry) === 'finished' && entry.status !== 'completed' ? (entry.detail ?? '') : ''
}

/** Pure. A duration as a short age; negative (a clock behind the writer's) reads as `now`. */
export function formatAge(ms: number): string {
  if (ms < 5_000) return 'now'
  if (ms < 60_000) return `${Math.floor(ms / 1000)}s ago`
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m ago`
  if (ms < 86_400_000) return `${Math.floor(ms / 3_600_000)}h ago`
  return `${Math.floor(ms / 86_400_000)}d ago`
}

/**
 * Pure. Splits off sessions that ended longer than `olderThanMs` ago (a terminal state and no
 * activity since): the table hides them by default.
 */
export function splitRecent(entries: readonly MonitorEntry[], now: number, olderThanMs: number): { recent: MonitorEntry[]; older: MonitorEntry[] } {
  const recent: MonitorEntry[] = []
  const older: MonitorEntry[] = []
  for (const entry of entries) (entry.state === 'ended' && now - entry.lastActivityAt > olderThanMs ? older : recent).push(entry)
  return { recent, older }
}

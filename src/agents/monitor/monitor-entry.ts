import type { AgentKind, NormalizedStatus, RunState } from '../../contract/agent-chat.js'
import type { Dialog } from '../../contract/dialog.js'

/**
 * One session as the monitor reports it: the reader's verdict passed through the monitor's
 * idle-vs-ended rules (session-state.ts). Plain data, safe to serialize (`chatrail sessions --json`).
 */

/** What made a session terminal: a finished/failed/aborted turn, its process going away, or a day of silence. */
export type EndedBy = 'turn' | 'process' | 'silence'

/** What the session did last, from its newest message (agent-neutral: no tool input is parsed). */
export interface SessionActivity {
  kind: 'prompt' | 'reply' | 'thinking' | 'tool' | 'dialog' | 'lifecycle'
  /** A short label: the tool name, or the first line of the text (≤ 60 chars). */
  label: string
}

export interface MonitorEntry {
  /** `agent:sessionId`, unique across agents. */
  key: string
  agent: AgentKind
  sessionId: string
  /** The transcript or rollout; a live Claude process that has not written yet has its future path. */
  path: string
  /** The session's working directory, when the transcript (or live process) names one. */
  cwd?: string
  /** The first typed prompt: what the session is about. */
  title?: string
  /** The five-state vocabulary; `ended` exactly when the session is terminal. */
  state: RunState
  /** Seed 002's normalized status; `completed`, `failed`, `stopped` exactly when `state` is `ended`. */
  status: NormalizedStatus
  detail?: string
  pendingDialog?: Dialog
  /** Epoch ms of the newest state-bearing transcript line (metadata lines do not count). */
  lastActivityAt: number
  activity?: SessionActivity
  /** Set exactly when the session is terminal. */
  endedBy?: EndedBy
  /** The live process (Claude's registry), while it is alive. */
  pid?: number
  /** The last read failure (an unreadable file, an over-long line): recorded, never thrown. */
  error?: string
}

/** How an entry asks for a person: the table sorts on it, notifications follow it. */
export type Attention = 'needs_you' | 'finished' | 'active' | 'quiet'

const TERMINAL: ReadonlySet<NormalizedStatus> = new Set(['completed', 'failed', 'stopped'])
const NEEDS_YOU: ReadonlySet<NormalizedStatus> = new Set(['waiting_for_approval', 'waiting_for_input', 'blocked'])
const ACTIVE: ReadonlySet<NormalizedStatus> = new Set(['running', 'streaming'])

/** Pure. A terminal status: the turn (or session) is over. */
export function isTerminalStatus(status: NormalizedStatus): boolean {
  return TERMINAL.has(status)
}

/** Pure. True when the entry is terminal (`state: 'ended'`). */
export function isTerminal(entry: Pick<MonitorEntry, 'state'>): boolean {
  return entry.state === 'ended'
}

/**
 * Pure. `needs_you`: a question, a permission or input prompt, or a blocked turn (never terminal);
 * `finished`: terminal by a turn or a process exit, or a reply with no end marker (`unknown`);
 * `active`: running or streaming; `quiet`: idle, or ended by silence alone.
 */
export function attentionOf(entry: Pick<MonitorEntry, 'state' | 'status' | 'endedBy'>): Attention {
  if (entry.state === 'ended') return entry.endedBy === 'silence' ? 'quiet' : 'finished'
  if (entry.state === 'question' || NEEDS_YOU.has(entry.status)) return 'needs_you'
  if (ACTIVE.has(entry.status)) return 'active'
  return entry.status === 'unknown' ? 'finished' : 'quiet'
}

import type { NormalizedStatus, RunState } from '../../contract/agent-chat.js'
import { isTerminalStatus } from './monitor-entry.js'
import type { EndedBy } from './monitor-entry.js'

/**
 * The idle-vs-ended rules of the monitor (seed 003, ADR-0109 option B amended; seed 002 states).
 * Pure: the same input always gives the same output, and nothing here reads a file or a clock.
 *
 * Idleness is not completion. Silence only ever yields `idle`, a non-terminal status; a session is
 * terminal only on lifecycle evidence (the reader's finished, failed or aborted turn, or its
 * process gone) or after `endedWindowMs` of silence, and a live process is never terminal.
 */

/** What the agent's reader says, composed with the agent's own live signals. */
export interface ReaderVerdict {
  state: RunState
  status: NormalizedStatus
  detail?: string
}

/**
 * `alive`: the agent's process for this session runs (Claude's registry pid). `gone`: it was
 * registered and is not any more (exited, killed, or moved to another session by `/clear`).
 * `none`: no process evidence either way (Codex, headless Claude runs, sessions that ended before).
 */
export type ProcessEvidence = 'alive' | 'gone' | 'none'

export interface SessionStateInput {
  verdict: ReaderVerdict
  /** Epoch ms of the newest state-bearing line. */
  lastActivityAt: number
  now: number
  process: ProcessEvidence
  liveWindowMs: number
  endedWindowMs: number
}

export interface SessionState {
  state: RunState
  status: NormalizedStatus
  detail?: string
  /** Set exactly when the result is terminal (`state: 'ended'`). */
  endedBy?: EndedBy
}

/**
 * Rules, first match wins:
 *
 * 1. **A live process is never terminal.** A finished turn reads `waiting_for_input` (the CLI waits
 *    for the next prompt), an interrupted one too, a failed one `blocked`; an active verdict silent
 *    for more than `liveWindowMs` reads `idle`; anything else is the reader's verdict.
 * 2. **Process gone**: terminal. The reader's terminal verdict is kept (`endedBy: 'turn'`); a
 *    finished-looking turn is `completed`; a turn still working or waiting on a person is `stopped`.
 * 3. **A terminal verdict** (finished, failed or aborted turn, `/exit`): terminal, `endedBy: 'turn'`.
 * 4. **Silent for more than `endedWindowMs`**: `completed`, `endedBy: 'silence'` (an inference that
 *    the transcript ended; a new line reopens it).
 * 5. **An active verdict silent for more than `liveWindowMs`**: `idle` (non-terminal).
 * 6. Otherwise the reader's verdict: waiting states stay waiting however quiet they are.
 *
 * Details are stable (they name the window, never the elapsed time), so a quiet session does not
 * change on every tick.
 */
export function deriveSessionState(input: SessionStateInput): SessionState {
  const { verdict } = input
  const silentFor = input.now - input.lastActivityAt
  const active = verdict.state === 'working'
  const readerTerminal = verdict.state === 'ended' || isTerminalStatus(verdict.status)

  if (input.process === 'alive') {
    if (readerTerminal) return liveAfterTurn(verdict)
    if (active && silentFor > input.liveWindowMs) return quiet(verdict, input.liveWindowMs)
    return copy(verdict)
  }
  if (input.process === 'gone') {
    if (readerTerminal) return ended(terminalStatusOf(verdict), 'turn', verdict.detail)
    const finished = verdict.state === 'needs_input' && (verdict.status === 'unknown' || verdict.status === 'idle')
    if (finished) return ended('completed', 'process', 'the process exited after the last reply')
    return ended('stopped', 'process', stoppedDetail(verdict))
  }
  if (readerTerminal) return ended(terminalStatusOf(verdict), 'turn', verdict.detail)
  if (silentFor > input.endedWindowMs) {
    return ended('completed', 'silence', `presumed ended: no transcript line for over ${formatWindow(input.endedWindowMs)}`)
  }
  if (active && silentFor > input.liveWindowMs) return quiet(verdict, input.liveWindowMs)
  return copy(verdict)
}

/** A reader's `ended` with a non-terminal status (an exit mid-turn) reads as `stopped`. */
function terminalStatusOf(verdict: ReaderVerdict): NormalizedStatus {
  return isTerminalStatus(verdict.status) ? verdict.status : 'stopped'
}

function liveAfterTurn(verdict: ReaderVerdict): SessionState {
  if (verdict.status === 'failed') return { state: 'needs_input', status: 'blocked', detail: `the turn failed: ${verdict.detail ?? 'an error'}` }
  if (verdict.status === 'completed') return { state: 'needs_input', status: 'waiting_for_input', detail: 'the turn finished; waiting for your next prompt' }
  return { state: 'needs_input', status: 'waiting_for_input', detail: verdict.detail ?? 'waiting for your next prompt' }
}

function quiet(verdict: ReaderVerdict, windowMs: number): SessionState {
  const was = verdict.detail ?? verdict.status
  return { state: 'idle', status: 'idle', detail: `quiet for over ${formatWindow(windowMs)} (last: ${was})` }
}

function ended(status: NormalizedStatus, endedBy: EndedBy, detail: string | undefined): SessionState {
  return { state: 'ended', status, endedBy, ...(detail !== undefined ? { detail } : {}) }
}

function stoppedDetail(verdict: ReaderVerdict): string {
  if (verdict.state === 'working') return 'the process exited mid-turn'
  if (verdict.state === 'idle') return 'the process exited'
  return `the process exited while waiting (${verdict.detail ?? verdict.status})`
}

function copy(verdict: ReaderVerdict): SessionState {
  return { state: verdict.state, status: verdict.status, ...(verdict.detail !== undefined ? { detail: verdict.detail } : {}) }
}

/** `5 min`, `24 h`, `90 s`: the window as a person would say it. Pure. */
export function formatWindow(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`
  if (ms % 60_000 === 0) return `${ms / 60_000} min`
  if (ms % 1000 === 0) return `${ms / 1000} s`
  return `${ms} ms`
}

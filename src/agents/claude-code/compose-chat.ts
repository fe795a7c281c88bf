import { basename } from 'node:path'
import type { AgentChat, NormalizedStatus } from '../../contract/agent-chat.js'
import type { Dialog } from '../../contract/dialog.js'
import { questionState } from './derive-state.js'
import type { DerivedState } from './derive-state.js'
import type { LiveMarker, LiveSignals, SpoolDialog } from './live-signal-files.js'
import type { ClaudeRegistryEntry } from './registry.js'
import type { TranscriptView } from './transcript-tail.js'

/**
 * The state composition of seed 000, owned by the Claude Code reader. Pure. In precedence order:
 *
 * 1. a live spool dialog → `question` + `pendingDialog` (never a message, so seqs stay stable
 *    when the real tool_use is written later); suppressed once its tool_use id is in the
 *    transcript or when its session is not the transcript's;
 * 2. else a dialog the transcript shows pending → `question` (it stays a message);
 * 3. else the registry's `waiting` or a live Notification marker → `needs_input` with `detail`;
 * 4. else the registry's `busy` → `working`;
 * 5. else the transcript fold, where a registry `idle` or a Stop/StopFailure marker newer than the
 *    transcript's last state-bearing line beats a stale `working` (never the background-work
 *    hold) and confirms a reply that had no end marker.
 *
 * Signals belong to the transcript's session only: a registry entry or marker of another session
 * (after `/clear`) is ignored. Silence alone never yields a terminal state.
 */

export interface ComposeInput {
  view: TranscriptView
  /** "" before the transcript is located. */
  transcriptPath: string
  /** The transcript file's mtime, for legacy spools without a session id. */
  transcriptMtimeMs?: number
  live: LiveSignals
  registry?: ClaudeRegistryEntry
}

export function composeChat(input: ComposeInput): AgentChat {
  const { view } = input
  const stem = input.transcriptPath === '' ? undefined : basename(input.transcriptPath).replace(/\.jsonl$/, '')
  const registry = input.registry !== undefined && ofTranscript(input.registry.sessionId, stem, view.sessionId) ? input.registry : undefined
  const marker = liveMarker(input.live.marker, stem, view.lastStateAtMs)
  const spool = liveSpool(input.live.spool, input, stem)
  const waiting = registry?.status === 'waiting' ? nonEmpty(registry.waitingFor?.trim()) ?? 'waiting' : undefined

  let derived: DerivedState = { state: view.state, status: view.status, ...(view.detail !== undefined ? { detail: view.detail } : {}) }
  let pendingDialog: Dialog | undefined
  if (spool !== undefined) {
    pendingDialog = spool.dialog
    derived = withDetail(questionState(spool.dialog.kind), waiting)
  } else if (view.state === 'question') {
    derived = withDetail(derived, waiting)
  } else if (waiting !== undefined) {
    derived = { state: 'needs_input', status: approvalStatus(waiting), detail: withTool(waiting, view) }
  } else if (marker?.event === 'Notification' && !(marker.notificationType === 'idle_prompt' && view.state === 'needs_input')) {
    const text = marker.message ?? marker.notificationType ?? 'Claude is waiting for your input'
    derived = { state: 'needs_input', status: approvalStatus(`${marker.notificationType ?? ''} ${text}`), detail: withTool(text, view) }
  } else if (registry?.status === 'busy') {
    derived = view.state === 'working' ? derived : { state: 'working', status: 'running', detail: 'the CLI reports busy' }
  } else {
    derived = settleFold(derived, view, registry, marker)
  }
  const sessionId = view.sessionId ?? stem ?? registry?.sessionId
  return {
    agent: 'claude-code',
    ...(sessionId !== undefined ? { sessionId } : {}),
    state: derived.state,
    status: derived.status,
    ...(derived.detail !== undefined ? { detail: derived.detail } : {}),
    messages: view.messages,
    ...(pendingDialog !== undefined ? { pendingDialog } : {}),
    cursor: view.cursor,
    ...(view.usage !== undefined ? { usage: view.usage } : {}),
    warnings: view.warnings,
  }
}

/**
 * Whether a registry entry of session `sessionId` speaks for this transcript: the file is named
 * after it, or the transcript's own lines carry it (a copied or renamed transcript keeps its
 * lines). Before the transcript is located (`stem` undefined) there is nothing to contradict it.
 */
function ofTranscript(sessionId: string, stem: string | undefined, linesSessionId: string | undefined): boolean {
  return stem === undefined || sessionId === stem || sessionId === linesSessionId
}

/** Layer 5: end-of-turn evidence newer than the transcript's last state-bearing line. */
function settleFold(derived: DerivedState, view: TranscriptView, registry: ClaudeRegistryEntry | undefined, marker: LiveMarker | undefined): DerivedState {
  if (marker?.event === 'StopFailure' && derived.state !== 'question' && derived.state !== 'ended' && derived.status !== 'failed' && derived.status !== 'blocked') {
    return { state: 'needs_input', status: 'failed', detail: marker.lastAssistantMessage ?? marker.error ?? 'the turn ended on an API error' }
  }
  const registryIdleAt = registry?.status === 'idle' ? registry.statusUpdatedAt ?? registry.updatedAt : undefined
  const idleAfterLastLine = registryIdleAt !== undefined && (view.lastStateAtMs === undefined || registryIdleAt > view.lastStateAtMs)
  const stopped = marker?.event === 'Stop'
  if (!idleAfterLastLine && !stopped) return derived
  const empty = view.messages.length === 0 && view.lastStateAtMs === undefined
  if (empty) return { state: 'idle', status: 'idle' }
  if (derived.state === 'working' && !view.holding) {
    return stopped ? { state: 'needs_input', status: 'completed', detail: 'the Stop hook fired' } : { state: 'needs_input', status: 'idle', detail: 'the CLI reports idle; the last turn left no end marker' }
  }
  if (derived.state === 'needs_input' && derived.status === 'unknown') return { state: 'needs_input', status: 'completed' }
  return derived
}

/** A spool dialog counts while its tool_use has not reached the transcript of the same session. */
function liveSpool(spool: SpoolDialog | undefined, input: ComposeInput, stem: string | undefined): SpoolDialog | undefined {
  if (spool === undefined || stem === undefined) return spool
  if (input.view.hasToolId(spool.toolUseId)) return undefined
  if (spool.sessionId !== undefined) return spool.sessionId === stem ? spool : undefined
  // Legacy payload without a session identity: a transcript written after it makes it stale.
  return input.transcriptMtimeMs !== undefined && input.transcriptMtimeMs > spool.mtimeMs ? undefined : spool
}

/** A marker counts for its own session, until a state-bearing line is written after it. */
function liveMarker(marker: LiveMarker | undefined, stem: string | undefined, lastStateAtMs: number | undefined): LiveMarker | undefined {
  if (marker === undefined) return undefined
  if (stem !== undefined && marker.sessionId !== undefined && marker.sessionId !== stem) return undefined
  if (lastStateAtMs !== undefined && lastStateAtMs > marker.mtimeMs) return undefined
  return marker
}

function approvalStatus(reason: string): NormalizedStatus {
  return /permission|approv/i.test(reason) ? 'waiting_for_approval' : 'waiting_for_input'
}

/** "permission prompt (Bash)" when the transcript shows which tool is waiting. */
function withTool(reason: string, view: TranscriptView): string {
  const running = view.state === 'working' && view.detail?.startsWith('running ') ? view.detail.slice('running '.length) : undefined
  return running === undefined || running === 'a tool' ? reason : `${reason} (${running})`
}

function withDetail(derived: DerivedState, detail: string | undefined): DerivedState {
  return detail === undefined ? derived : { ...derived, detail }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

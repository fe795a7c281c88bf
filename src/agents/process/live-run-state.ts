import type { StreamChunk } from '../../contract/stream.js'
import type { AgentChat, AgentKind } from '../../contract/agent-chat.js'
import type { Dialog } from '../../contract/dialog.js'
import type { AgentRunStateSource } from '../../contract/live-agent-adapter.js'
import type { AgentSnapshot } from '../../contract/agent-snapshot.js'
import type { ProcessStreamEvent } from './process-stream-source.js'
import { startPollLoop } from './poll-loop.js'
import type { PollLoop } from './poll-loop.js'
import { runningToolIds, settleOrphanedTools } from './orphaned-tools.js'
import { createRunStateStore } from './run-state-store.js'

/**
 * The live run state of an agent CLI adapter (`LiveAgentAdapter.agentRunState`): while a turn runs,
 * the agent's own transcript is read with its reader's incremental tail every `pollMs`, and the
 * snapshot subscribers see is `{ agent, state, status, detail, pendingDialog }` of that chat, with
 * the adapter's overlays on top (a dialog waiting on stdin). The agent's folder decides what its
 * signals mean; this file only schedules reads and owns the snapshot.
 *
 * Ordering: `turnStarted` → `runKnown` (once the CLI reported its session/thread id) → reads →
 * `turnEnded` (one final read, then polling stops). When the process is gone but the transcript
 * still says `working` or `unknown` (a killed CLI writes no end marker), the adapter's knowledge of how the turn
 * ended decides instead — the process exit is a live signal, not silence.
 */

export type TurnOutcome =
  | { kind: 'completed' }
  | { kind: 'failed'; detail: string }
  | { kind: 'aborted' }

export interface ChatSource {
  read: () => Promise<AgentChat>
}

export interface LiveRunStateOptions {
  agent: AgentKind
  pollMs: number
  /** An incremental reader of the run's transcript, or `undefined` while the file does not exist yet. */
  openReader: (runId: string) => ChatSource | undefined
  /** Applied to every snapshot (e.g. a pending dialog the CLI is waiting on). Pure. */
  overlay?: (snapshot: AgentSnapshot) => AgentSnapshot
  answerDialog?: AgentRunStateSource['answerDialog']
  /**
   * The CLI's tools end with its process (Codex kills its exec sessions when it exits). A tool the
   * transcript still shows running after the turn's process is gone is then shown ended, result
   * unknown, in this and every later read: the CLI may record its end only after the last read, or
   * never (Codex 0.171 logs "failed to record rollout items: thread … not found" as it exits; 2 of
   * 8 runs of codex-long-command saw the command running after the exit without this).
   */
  toolsEndWithProcess?: boolean
}

export interface LiveRunState {
  source: AgentRunStateSource
  turnStarted: () => void
  runKnown: (runId: string) => void
  /** The overlay's inputs changed: compute the snapshot again now. */
  changed: () => void
  /**
   * The CLI reported the end of the turn (its terminal event): from now on a transcript that still
   * says `working` is overruled by `outcome`; reading goes on until `turnEnded`.
   */
  turnFinishing: (outcome: TurnOutcome) => void
  /** The process is gone: reads the transcript once more, stops polling and settles the state. */
  turnEnded: (outcome: TurnOutcome) => Promise<void>
  /** The last chat the reader returned. */
  lastChat: () => AgentChat | undefined
  /** The session / thread id the CLI reported, once known. */
  runId: () => string | undefined
}

export function createLiveRunState(options: LiveRunStateOptions): LiveRunState {
  const store = createRunStateStore()
  let runId: string | undefined
  let reader: ChatSource | undefined
  let chat: AgentChat | undefined
  let loop: PollLoop | undefined
  let running = false
  let outcome: TurnOutcome | undefined
  /** Where the transcript ended when this turn started: until it grows, it only shows the last turn. */
  let offsetAtStart: number | undefined
  /** Tools that were running when a turn's process exited (`toolsEndWithProcess`). */
  const orphaned = new Set<string>()

  function base(): AgentSnapshot {
    // Until the transcript grows, it only shows earlier turns (or nothing).
    const fresh = chat !== undefined && chat.state !== 'idle' && chat.cursor.offset !== offsetAtStart
    if (chat === undefined || !fresh) {
      if (running) return { agent: options.agent, state: 'working', status: 'running' }
      if (outcome !== undefined) return fromOutcome(outcome)
      return chat === undefined ? { agent: options.agent, state: 'idle', status: 'idle' } : snapshotOf(chat)
    }
    const snapshot = snapshotOf(chat)
    // Once the turn has ended, a transcript read that still says `working` is overruled by the
    // outcome; so is a dialog it still shows open when the turn completed (the CLI answered it live
    // and finished before the next read). An aborted turn keeps its open dialog: the next turn's
    // text answers it.
    const unsettled = snapshot.state === 'working' || snapshot.status === 'unknown' || (outcome?.kind === 'completed' && snapshot.pendingDialog !== undefined)
    return !running && outcome !== undefined && unsettled ? fromOutcome(outcome) : snapshot
  }

  function snapshotOf(from: AgentChat): AgentSnapshot {
    const snapshot: AgentSnapshot = { agent: options.agent, state: from.state, status: from.status }
    if (from.detail !== undefined) snapshot.detail = from.detail
    const pending = from.pendingDialog ?? openDialog(from)
    if (pending !== undefined) snapshot.pendingDialog = pending
    return snapshot
  }

  function fromOutcome(ended: TurnOutcome): AgentSnapshot {
    switch (ended.kind) {
      case 'aborted':
        return { agent: options.agent, state: 'needs_input', status: 'stopped', detail: 'the turn was aborted' }
      case 'failed':
        return { agent: options.agent, state: 'needs_input', status: 'failed', detail: ended.detail }
      case 'completed':
        return { agent: options.agent, state: 'needs_input', status: 'completed' }
    }
  }

  function publish(): void {
    const snapshot = base()
    store.set(options.overlay ? options.overlay(snapshot) : snapshot)
  }

  async function tick(): Promise<void> {
    if (runId === undefined) return
    reader ??= options.openReader(runId)
    if (reader === undefined) return
    try {
      chat = settleOrphanedTools(await reader.read(), orphaned)
    } catch {
      // A vanished or replaced file: open it again next time; keep the last state meanwhile.
      reader = undefined
    }
    publish()
  }

  const source: AgentRunStateSource = {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    ...(options.answerDialog ? { answerDialog: options.answerDialog } : {}),
  }

  return {
    source,
    turnStarted() {
      running = true
      outcome = undefined
      offsetAtStart = chat?.cursor.offset
      publish()
      if (runId !== undefined) loop ??= startPollLoop(tick, options.pollMs, () => undefined)
    },
    runKnown(id) {
      if (id !== runId) {
        runId = id
        reader = undefined
        chat = undefined
        offsetAtStart = undefined
        orphaned.clear()
      }
      if (running) loop ??= startPollLoop(tick, options.pollMs, () => undefined)
    },
    changed: publish,
    turnFinishing(ended) {
      running = false
      outcome = ended
      publish()
    },
    async turnEnded(ended) {
      running = false
      // The outcome seen at the terminal event stands (an abort after `done` changes nothing).
      outcome = outcome ?? ended
      const stopping = loop
      loop = undefined
      if (stopping) await stopping.stop()
      else await tick()
      if (options.toolsEndWithProcess && chat !== undefined) {
        for (const id of runningToolIds(chat)) orphaned.add(id)
        chat = settleOrphanedTools(chat, orphaned)
      }
      publish()
    },
    lastChat: () => chat,
    runId: () => runId,
  }
}

/**
 * A reader keeps a dialog the transcript shows unanswered as its last message (so seqs stay
 * stable) and says `question`; the snapshot lifts it into `pendingDialog`.
 */
function openDialog(chat: AgentChat): Dialog | undefined {
  if (chat.state !== 'question') return undefined
  for (let index = chat.messages.length - 1; index >= 0; index -= 1) {
    const dialog = chat.messages[index]?.dialog
    if (dialog !== undefined) return dialog.outcome === undefined ? dialog : undefined
  }
  return undefined
}

/** How a settled turn ended, from its process-stream event: aborted, or what its terminal chunk says. */
export function turnOutcomeOf(event: Extract<ProcessStreamEvent, { type: 'settled' }>): TurnOutcome {
  return event.aborted ? { kind: 'aborted' } : outcomeOfChunk(event.terminal)
}

/** `done` → completed; an error chunk (or none) → failed, with the first line of its message. */
export function outcomeOfChunk(chunk: StreamChunk | undefined): TurnOutcome {
  if (chunk?.type === 'done') return { kind: 'completed' }
  return { kind: 'failed', detail: (chunk?.content ?? 'the CLI ended without finishing the turn').split('\n', 1)[0] ?? '' }
}

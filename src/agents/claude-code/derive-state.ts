import type { AgentMessage, NormalizedStatus, RunState } from '../../contract/agent-chat.js'
import type { FoldScalars } from './fold-store.js'

/**
 * The state a transcript alone supports, from the class of its last state-bearing line. Pure.
 * The normalized `status` column is the table in docs/claude-code.md. Silence never produces a
 * terminal status: `completed` needs an end marker (`end_turn`/`stop_sequence` on the last
 * assistant line, or a `turn_duration` / `stop_hook_summary` after it).
 */

export interface DerivedState {
  state: RunState
  status: NormalizedStatus
  detail?: string
}

export interface DeriveInput {
  scalars: FoldScalars
  last: AgentMessage | undefined
  pendingWork: number
}

export function deriveFoldState(input: DeriveInput): DerivedState {
  const { scalars, last, pendingWork } = input
  const holding = pendingWork > 0 ? holdDetail(pendingWork) : undefined
  switch (scalars.lastKey) {
    case '':
      return { state: 'idle', status: 'idle' }
    case 'exit':
      return { state: 'ended', status: 'stopped', detail: 'the session was exited (/exit)' }
    case 'dialog':
      if (last?.dialog !== undefined && last.dialog.outcome === undefined) return questionState(last.dialog.kind)
      return { state: 'working', status: 'running' }
    case 'error':
      return errorState(scalars)
    case 'max_tokens':
      return { state: 'needs_input', status: 'blocked', detail: 'the response hit the output token limit (max_tokens)' }
    case 'interrupt':
      return { state: 'needs_input', status: 'stopped', detail: 'interrupted by the user' }
    case 'assistant:end':
      return holding ? { state: 'working', status: 'running', detail: holding } : { state: 'needs_input', status: 'completed' }
    case 'assistant:text':
      if (holding) return { state: 'working', status: 'running', detail: holding }
      return scalars.turnEnded ? { state: 'needs_input', status: 'completed' } : { state: 'needs_input', status: 'unknown', detail: 'no end-of-turn marker after the last reply' }
    case 'assistant:streaming':
      return scalars.turnEnded && !holding ? { state: 'needs_input', status: 'completed' } : { state: 'working', status: 'streaming' }
    case 'tool_use':
      return { state: 'working', status: 'running', detail: scalars.lastToolName === undefined ? 'running a tool' : `running ${scalars.lastToolName}` }
    case 'api-retry':
      return { state: 'working', status: 'running', detail: scalars.retryText ?? 'retrying after an API error' }
    case 'tool_result':
    case 'user:text':
    case 'task-notification':
      return holding ? { state: 'working', status: 'running', detail: holding } : { state: 'working', status: 'running' }
  }
}

export function questionState(kind: 'question' | 'plan'): DerivedState {
  return kind === 'plan'
    ? { state: 'question', status: 'waiting_for_approval', detail: 'plan approval' }
    : { state: 'question', status: 'waiting_for_input', detail: 'question' }
}

/**
 * An API error ends the turn: `failed`, except a response cut at the output cap, which needs the
 * user to intervene (`blocked`).
 */
function errorState(scalars: FoldScalars): DerivedState {
  const text = firstLine(scalars.errorText ?? 'API error')
  const capped = scalars.errorTag === 'max_output_tokens' || /output token maximum/i.test(scalars.errorText ?? '')
  return { state: 'needs_input', status: capped ? 'blocked' : 'failed', detail: text }
}

function holdDetail(count: number): string {
  return count === 1 ? 'waiting for 1 background task' : `waiting for ${count} background tasks`
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

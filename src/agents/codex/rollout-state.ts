import type { AgentMessage, NormalizedStatus, RunState } from '../../contract/agent-chat.js'
import type { Turn } from './turn-lifecycle.js'

/**
 * The state of a Codex thread, decided by the last turn's lifecycle (pure):
 *
 * | last turn                         | state         | status       | detail          |
 * |-----------------------------------|---------------|--------------|-----------------|
 * | none, no messages                 | `idle`        | `idle`       |                 |
 * | explicit, open (`task_started`)   | `working`     | `running`    |                 |
 * | `task_complete`                   | `needs_input` | `completed`  |                 |
 * | `turn_aborted`                    | `needs_input` | `stopped`    | the reason      |
 * | `task_complete.error` / `error`   | `needs_input` | `failed`     | the message     |
 * | … with a usage/context-limit kind | `needs_input` | `blocked`    | the message     |
 * | implicit (no lifecycle events)    | inferred from the turn's messages, below         |
 *
 * Inference (files written before lifecycle events were persisted): assistant text last, with no
 * tool still running → `needs_input` / `completed`; anything else → `working` / `running`.
 * Silence never ends a turn: an unfinished file stays `working`.
 */
export interface DerivedState {
  state: RunState
  status: NormalizedStatus
  detail?: string
}

/** Failures the user must act on before retrying (wait for the limit, compact the context). */
const BLOCKING_ERROR_KINDS = new Set(['usage_limit_exceeded', 'context_window_exceeded'])

export function deriveRolloutState(last: Turn | undefined, messages: readonly AgentMessage[]): DerivedState {
  if (!last) return messages.some(isMaterial) ? inferFromMessages(messages) : { state: 'idle', status: 'idle' }
  switch (last.status) {
    case 'completed':
      return { state: 'needs_input', status: 'completed' }
    case 'stopped':
      return withDetail({ state: 'needs_input', status: 'stopped' }, last.detail)
    case 'failed': {
      const status = last.errorKind !== undefined && BLOCKING_ERROR_KINDS.has(last.errorKind) ? 'blocked' : 'failed'
      return withDetail({ state: 'needs_input', status }, last.detail)
    }
    case 'running':
      if (last.explicit && last.open) return { state: 'working', status: 'running' }
      return inferFromMessages(messages.filter((message) => message.seq >= last.firstSeq))
  }
}

function inferFromMessages(messages: readonly AgentMessage[]): DerivedState {
  const material = messages.filter(isMaterial)
  const lastMessage = material.at(-1)
  if (!lastMessage) return { state: 'working', status: 'running' }
  const toolRunning = material.some((message) => message.tool?.status === 'running')
  if (lastMessage.kind === 'text' && lastMessage.role === 'assistant' && !toolRunning) {
    return { state: 'needs_input', status: 'completed' }
  }
  return { state: 'working', status: 'running' }
}

/** Lifecycle lines (errors, compaction notes) say nothing about who speaks next. */
function isMaterial(message: AgentMessage): boolean {
  return message.kind !== 'lifecycle'
}

function withDetail(state: DerivedState, detail: string | undefined): DerivedState {
  return detail ? { ...state, detail } : state
}

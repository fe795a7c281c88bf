import type { StreamStatus } from '../contract/stream.js'
import type { Message } from '../contract/message.js'
import { planRetry } from './history-edits.js'

/**
 * Which messages a Retry / Regenerate / "Edit last message" control may act on right now. Both ids
 * are set together or not at all: a control shown for a target the controller would refuse is a
 * dead button, so these follow the controller's own rules (`planRegenerate`, `planRetry`).
 */
export interface LifecycleTargets {
  /** The user message the last answer replies to (what `edit(userId, text)` rewrites and asks again). */
  readonly userId: string | undefined
  /** The last message, an assistant (what `regenerate()` drops and asks again). */
  readonly assistantId: string | undefined
  /** Whether `retry()` applies: the user message is right before the assistant. */
  readonly canRetry: boolean
}

const NONE: LifecycleTargets = Object.freeze({ userId: undefined, assistantId: undefined, canRetry: false })

/**
 * Pure; reads `messages` only. The targets of the last turn: set when the last message is a
 * finished assistant message (not `pending` or `streaming`) with a user message before it, and the
 * controller is not streaming (`status`, default `'idle'`). Anything else (a trailing user
 * message, an assistant with no user before it, an empty history) → no targets. Same name as
 * AgentsKit Chat's `getLifecycleTargets(messages)`, which ignores status; `canRetry` is chatrail's.
 */
export function getLifecycleTargets(messages: readonly Message[], status: StreamStatus = 'idle'): LifecycleTargets {
  if (status === 'streaming') return NONE
  const last = messages[messages.length - 1]
  if (last?.role !== 'assistant' || last.status === 'pending' || last.status === 'streaming') return NONE
  for (let cursor = messages.length - 2; cursor >= 0; cursor -= 1) {
    const candidate = messages[cursor] as Message
    if (candidate.role === 'user') return Object.freeze({ userId: candidate.id, assistantId: last.id, canRetry: planRetry(messages) !== undefined })
  }
  return NONE
}

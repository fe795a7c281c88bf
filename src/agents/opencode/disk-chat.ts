import type { AgentChat } from '../../contract/agent-chat.js'
import { composeChat } from './compose-chat.js'
import { createSessionModel, resync } from './session-fold.js'

/** The detail of every state read from disk: OpenCode keeps its run state only in the server's memory. */
export const DISK_DETAIL = "read from OpenCode's files: its run state lives only in the server"

/**
 * A session's chat from the messages OpenCode stored on disk (`opencode.db` or the legacy JSON
 * files), folded as the live reader folds the server's. History only: the state is `unknown` and
 * no dialog is answerable (seed 002), unless there is nothing at all to read.
 */
export function diskChat(sessionId: string, messages: unknown[], warnings: string[]): AgentChat {
  const model = createSessionModel(sessionId)
  resync(model, { messages, status: undefined, permissions: [], questions: [] })
  const chat = composeChat(model, { warnings })
  if (chat.messages.length === 0) return chat
  const { pendingDialog: _pending, ...rest } = chat
  return { ...rest, state: 'needs_input', status: 'unknown', detail: DISK_DETAIL }
}

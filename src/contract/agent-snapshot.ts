import type { AgentKind, NormalizedStatus, RunState } from './agent-chat.js'
import type { Dialog } from './dialog.js'

/**
 * A live agent's run state as a session mirrors it into `getSnapshot().agent`: the part of an
 * `AgentChat` a chat UI shows while the agent works (no messages, no cursor).
 */
export interface AgentSnapshot {
  agent: AgentKind
  state: RunState
  status: NormalizedStatus
  detail?: string
  pendingDialog?: Dialog
}

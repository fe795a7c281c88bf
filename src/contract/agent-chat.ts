import type { Dialog } from './dialog.js'

/**
 * What every agent reader returns (seed 000: the read contract). Readers (src/agents/<agent>) own
 * their agent's signals completely; the contract only names the vocabulary they share with the
 * session, the monitor, the CLI and the renderers.
 */

export type AgentKind = 'claude-code' | 'codex' | 'opencode'

/** The five-state vocabulary of seed 000. `ended` is terminal for the run, never inferred from silence. */
export type RunState = 'idle' | 'working' | 'needs_input' | 'question' | 'ended'

/** The normalized states of seed 002, plus `idle` and `unknown`. */
export type NormalizedStatus =
  | 'running'
  | 'streaming'
  | 'waiting_for_approval'
  | 'waiting_for_input'
  | 'blocked'
  | 'completed'
  | 'failed'
  | 'stopped'
  | 'idle'
  | 'unknown'

export type AgentMessageKind = 'text' | 'thinking' | 'tool' | 'dialog' | 'lifecycle'
export type AgentToolStatus = 'running' | 'ok' | 'error'

export interface AgentTool {
  id: string
  name: string
  input: unknown
  status: AgentToolStatus
  output?: string
}

export interface AgentMessage {
  /** From 1, stable when the file is re-read or grows. */
  seq: number
  kind: AgentMessageKind
  role?: 'user' | 'assistant' | 'system'
  text?: string
  tool?: AgentTool
  dialog?: Dialog
  /** ISO timestamp from the transcript, when it has one. */
  at?: string
}

export interface AgentUsage {
  inputTokens: number
  outputTokens: number
  cacheReadTokens?: number
  cacheCreationTokens?: number
}

/** Where a reader stopped: enough to resume an incremental tail. */
export interface AgentCursor {
  /** Bytes of the file consumed (complete lines only). */
  offset: number
  /** Complete lines consumed. */
  lines: number
}

export interface AgentChat {
  agent: AgentKind
  sessionId?: string
  state: RunState
  status: NormalizedStatus
  detail?: string
  messages: AgentMessage[]
  pendingDialog?: Dialog
  cursor: AgentCursor
  usage?: AgentUsage
  /** Malformed or half-written lines skipped, and other things worth knowing; never thrown. */
  warnings: string[]
}

import type { AdapterFactory } from '../../contract/adapter.js'
import type { AgentKind, NormalizedStatus, RunState } from './agent-chat.js'
import type { Dialog, DialogAnswer } from './dialog.js'

/**
 * The session-aware extension an agent adapter may carry. A session whose adapter has
 * `agentRunState` mirrors it into `getSnapshot().agent` and notifies its own subscribers when
 * it changes; nothing outside the agent's folder interprets the agent's signals (seed 000).
 */

export interface AgentSnapshot {
  agent: AgentKind
  state: RunState
  status: NormalizedStatus
  detail?: string
  pendingDialog?: Dialog
}

/** How the user answered a pending dialog from the chat. */
export type DialogAnswerInput =
  | { kind: 'question'; answers: DialogAnswer[] }
  | { kind: 'plan'; approved: boolean; feedback?: string }

/**
 * `live`: the answer reached the running agent. `next-turn`: the agent cannot take it now
 * (headless mode); the caller sends `text` as the next user message.
 */
export type DialogAnswerResult = { delivered: 'live' } | { delivered: 'next-turn'; text: string }

export interface AgentRunStateSource {
  getSnapshot: () => AgentSnapshot | undefined
  subscribe: (listener: () => void) => () => void
  answerDialog?: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
}

export type LiveAgentAdapter = AdapterFactory & { agentRunState: AgentRunStateSource }

export function isLiveAgentAdapter(adapter: AdapterFactory): adapter is LiveAgentAdapter {
  const source = (adapter as Partial<LiveAgentAdapter>).agentRunState
  return typeof source === 'object' && source !== null && typeof source.getSnapshot === 'function'
}

import type { AdapterFactory } from './adapter.js'
import type { AgentSnapshot } from './agent-snapshot.js'
import type { DialogAnswerInput, DialogAnswerResult } from './dialog.js'

/**
 * The session-aware extension an agent adapter may carry. A session whose adapter has
 * `agentRunState` mirrors it into `getSnapshot().agent` and notifies its own subscribers when
 * it changes; nothing outside the agent's folder interprets the agent's signals (seed 000). The
 * extension lives in the contract so the conversation layer can recognise it without importing
 * any agent: agents are plugins above it.
 */

export interface AgentRunStateSource {
  getSnapshot: () => AgentSnapshot | undefined
  subscribe: (listener: () => void) => () => void
  answerDialog?: (toolId: string, answer: DialogAnswerInput) => Promise<DialogAnswerResult>
}

export type LiveAgentAdapter = AdapterFactory & { agentRunState: AgentRunStateSource }

/** True when `adapter` carries a usable `agentRunState` (an object with `getSnapshot`). */
export function isLiveAgentAdapter(adapter: AdapterFactory): adapter is LiveAgentAdapter {
  const source = (adapter as Partial<LiveAgentAdapter>).agentRunState
  return typeof source === 'object' && source !== null && typeof source.getSnapshot === 'function'
}

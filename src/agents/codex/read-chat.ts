import type { AgentChat } from '../../contract/agent-chat.js'
import { createRolloutTail } from './rollout-tail.js'
import type { RolloutTailOptions } from './rollout-tail.js'

/**
 * The read contract of seed 000 for Codex. `runId` and `runtimeDir` are accepted and ignored:
 * Codex has no live signals beyond its rollout, whose lifecycle events already say what state the
 * agent is in. `transcriptPath: ""` (not located yet) is the idle empty chat, never an error; a
 * non-empty path that does not exist is a `TranscriptGoneError`; other I/O errors pass through.
 */
export interface ReadChatInput {
  runId: string
  runtimeDir: string
  transcriptPath: string
}

export async function readChat(input: ReadChatInput, options: RolloutTailOptions = {}): Promise<AgentChat> {
  if (input.transcriptPath === '') return emptyCodexChat()
  return createRolloutTail(input.transcriptPath, options).read()
}

/** The idle empty chat (no rollout yet). */
export function emptyCodexChat(): AgentChat {
  return { agent: 'codex', state: 'idle', status: 'idle', messages: [], cursor: { offset: 0, lines: 0 }, warnings: [] }
}

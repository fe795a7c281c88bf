import type { TurnTrace } from '../conversation/index.js'

/**
 * Pure: the turn's agent failed and the definition's fallback answered instead (its trace carries
 * the error's class; `MissingAdapter` is a chat without an agent, not a failure).
 */
export function agentFailedIn(trace: TurnTrace | undefined): boolean {
  return trace?.kind === 'fallback' && trace.errorClass !== undefined && trace.errorClass !== 'MissingAdapter'
}

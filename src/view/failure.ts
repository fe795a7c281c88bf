import type { TurnTrace } from '../conversation/index.js'
import type { agentFailedIn } from './agent-failure.js'
import { messageLabels } from './message-labels.js'
import type { MessageLabels } from './message-labels.js'

/** A failure in plain words: what happened, its cause when known, and what to do. */
export interface Failure {
  /** The error or the trace it stands for: a dismissed failure stays dismissed until another one comes. */
  key: object
  message: string
  cause?: string
  hint: string
}

/**
 * Pure: the failure to report, if any: the chat's error (a failed turn), else a last turn whose
 * agent failed and the definition's fallback answered instead (`failedIn`: agent-failure.ts's
 * `agentFailedIn`, handed in so that a lazy chunk can take it from its host). `words`: the labels (default English).
 */
export function failureOf(error: Error | null, traces: readonly TurnTrace[], failedIn: typeof agentFailedIn, words: MessageLabels = messageLabels): Failure | undefined {
  if (error !== null) {
    const { code, hint } = error as Error & { code?: unknown; hint?: unknown }
    const cause = typeof code === 'string' && code !== '' && code !== error.message ? `${error.message} (${code})` : error.message
    return {
      key: error,
      message: words.replyFailed,
      ...(cause === '' ? {} : { cause }),
      hint: typeof hint === 'string' && hint !== '' ? hint : words.replyFailedHint,
    }
  }
  const last = traces.at(-1)
  if (last !== undefined && failedIn(last)) {
    return { key: last, message: words.agentFellBack, cause: words.agentFailedWith(last.errorClass), hint: words.agentRetryHint }
  }
  return undefined
}

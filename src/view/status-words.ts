import type { ChatState } from '../contract/chat.js'
import type { Dialog } from '../contract/dialog.js'
import type { ChatLabels } from './chat-labels.js'
import { entryLabels } from './entry-labels.js'

export type StatusWords = Pick<ChatLabels, 'waitingElsewhere' | 'waitingReview' | 'waitingAnswer' | 'working' | 'failed' | 'finished' | 'ready'>

/**
 * Pure: what the user needs to know now, in plain words. A pending dialog comes first (the turn is
 * streaming while it waits), then the stream, then the conversation's end. The agent's own run
 * state never speaks here: after a Stop it may still say "working" for a moment. `agentFailed`:
 * the last turn's agent failed and the fallback answered (`agentFailedIn`). `words`: the labels
 * (default English).
 */
export function statusWordsOf(status: ChatState['status'], pendingDialog: Dialog | undefined, final: boolean, agentFailed = false, words: StatusWords = entryLabels): string {
  if (pendingDialog !== undefined) {
    if (!pendingDialog.answerable) return words.waitingElsewhere
    return pendingDialog.kind === 'plan' ? words.waitingReview : words.waitingAnswer
  }
  if (status === 'streaming') return words.working
  // The fallback answered for a failed agent: not "Ready" while the banner says it failed.
  if (status === 'error' || agentFailed) return words.failed
  return final ? words.finished : words.ready
}

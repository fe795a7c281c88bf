import type { DialogAnswerInput } from '../contract/dialog.js'
import type { ConversationStore, Lease } from '../store/conversation-store.js'

/**
 * The running turn's side of stop and dialog answers: instances never talk to each other, so a
 * stop or an answer POSTed to any instance waits in the store (`store.signal`) and the instance
 * holding the turn's lease polls for it every `pollMs` while the turn runs. Polls never overlap
 * (a slow store delays the next one rather than piling them up), and the first poll comes only
 * after `pollMs`, so a fast deterministic turn costs no query at all.
 */
export interface SignalWatch {
  end: () => void
}

export interface SignalWatchInput {
  readonly store: ConversationStore
  readonly lease: () => Pick<Lease, 'conversationId' | 'token'>
  readonly pollMs: number
  readonly onDialogAnswer: (toolId: string, answer: DialogAnswerInput) => void
  /** A stop arrived (or the lease is no longer this turn's). Called once. */
  readonly onStop: () => void
  readonly onError: (error: unknown) => void
}

/** The JSON a dialog answer travels as in the store. */
export const encodeDialogSignal = (toolId: string, answer: DialogAnswerInput): string => JSON.stringify({ toolId, answer })

function decodeDialogSignal(payload: string): { toolId: string; answer: DialogAnswerInput } | undefined {
  try {
    const value = JSON.parse(payload) as { toolId?: unknown; answer?: unknown }
    if (typeof value.toolId !== 'string' || typeof value.answer !== 'object' || value.answer === null) return undefined
    return { toolId: value.toolId, answer: value.answer as DialogAnswerInput }
  } catch {
    return undefined
  }
}

export function watchSignals(input: SignalWatchInput): SignalWatch {
  let ended = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const poll = async (): Promise<void> => {
    try {
      const signals = await input.store.takeSignals(input.lease())
      if (ended) return
      if (signals.dialogAnswer !== undefined) {
        const answer = decodeDialogSignal(signals.dialogAnswer)
        if (answer) input.onDialogAnswer(answer.toolId, answer.answer)
      }
      if (signals.stop) {
        input.onStop()
        return
      }
    } catch (error) {
      input.onError(error) // a store hiccup: try again at the next poll
    }
    schedule()
  }
  const schedule = (): void => {
    if (!ended) timer = setTimeout(() => void poll(), input.pollMs)
  }
  schedule()
  return {
    end() {
      ended = true
      clearTimeout(timer)
    },
  }
}

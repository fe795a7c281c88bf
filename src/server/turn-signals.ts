import type { DialogAnswerInput } from '../contract/dialog.js'
import type { ConversationStore, Lease, StoreWake } from '../store/conversation-store.js'

/**
 * The running turn's side of stop and dialog answers: instances never talk to each other, so a
 * stop or an answer POSTed to any instance waits in the store (`store.signal`) and the instance
 * holding the turn's lease takes it when the store wakes it (`store.subscribe`: Postgres
 * `LISTEN/NOTIFY`, in-process for PGlite and memory) or, as the fallback, at its poll every
 * `pollMs` while the turn runs. Reads never overlap (a slow store delays the next one rather than
 * piling them up; a wake during a read reads once more after it), and the first poll comes only
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
  let polling = false
  let wokenWhilePolling = false
  const poll = async (): Promise<void> => {
    clearTimeout(timer)
    polling = true
    try {
      const signals = await input.store.takeSignals(input.lease())
      if (ended) return
      if (signals.dialogAnswer !== undefined) {
        const answer = decodeDialogSignal(signals.dialogAnswer)
        if (answer) input.onDialogAnswer(answer.toolId, answer.answer)
      }
      if (signals.stop) {
        ended = true
        unsubscribe()
        input.onStop()
        return
      }
    } catch (error) {
      input.onError(error) // a store hiccup: try again at the next poll
    } finally {
      polling = false
    }
    if (wokenWhilePolling) {
      // the signal may have committed after this poll read: read again now, not a poll later
      wokenWhilePolling = false
      if (!ended) void poll()
    } else schedule()
  }
  const schedule = (): void => {
    if (!ended) timer = setTimeout(() => void poll(), input.pollMs)
  }
  // Woken by the store, the holder reads at once. The poll stays, at the same interval: a wake can
  // be lost (a listener reconnecting), and the poll is also what sees the lease taken over.
  const wake = (reason: StoreWake): void => {
    if (ended || reason === 'turn-parts') return // its own stream's flushes
    if (polling) wokenWhilePolling = true
    else void poll()
  }
  const unsubscribeFromStore = input.store.subscribe?.(input.lease().conversationId, wake)
  let subscribed = unsubscribeFromStore !== undefined
  const unsubscribe = (): void => {
    if (subscribed) unsubscribeFromStore?.()
    subscribed = false
  }
  schedule()
  return {
    end() {
      ended = true
      clearTimeout(timer)
      unsubscribe()
    },
  }
}

import type { Dialog, DialogOutcome } from '../../src/agents/runstate/dialog.js'
import type { DialogAnswerInput } from '../../src/agents/runstate/live.js'

/**
 * The dialogs a mount has seen, in arrival order: the agent's pending dialog lives only in
 * `snapshot.agent.pendingDialog` (seed 001: never a stream message), so once it is answered or
 * vanishes the renderer must remember it to keep its Q→A summary in the stream. Pure functions
 * over an immutable log; each returns the same array when nothing changed.
 */

export interface DialogLogEntry {
  dialog: Dialog
  /** Id of the last chat message when the dialog arrived; null when history was empty. */
  anchor: string | null
  /** True between an answer being sent and its result; a vanishing dialog is not dismissed then. */
  answering: boolean
}

export type DialogLog = readonly DialogLogEntry[]

/** The outcome a successful answer from the chat records, in the shape seed 001 pins. */
export function outcomeOfAnswer(answer: DialogAnswerInput): DialogOutcome {
  if (answer.kind === 'plan') {
    const outcome: DialogOutcome = { dismissed: false, approved: answer.approved }
    if (answer.feedback !== undefined && answer.feedback !== '') outcome.feedback = answer.feedback
    return outcome
  }
  return { dismissed: false, approved: false, results: answer.answers }
}

const DISMISSED: DialogOutcome = Object.freeze({ dismissed: true, approved: false })

function replace(log: DialogLog, index: number, entry: DialogLogEntry): DialogLog {
  const next = log.slice()
  next[index] = entry
  return next
}

/**
 * Folds the agent's current pending dialog into the log. A new tool id is appended (anchored
 * after `lastMessageId`); a pending entry that is no longer the agent's pending dialog and was not
 * being answered is recorded as dismissed, never left looking pending.
 */
export function observePending(log: DialogLog, pending: Dialog | undefined, lastMessageId: string | null): DialogLog {
  let next = log
  next.forEach((entry, index) => {
    if (entry.dialog.outcome !== undefined || entry.answering) return
    if (pending !== undefined && pending.toolId === entry.dialog.toolId) return
    next = replace(next, index, { ...entry, dialog: { ...entry.dialog, outcome: DISMISSED } })
  })
  if (pending === undefined) return next
  const index = next.findIndex((entry) => entry.dialog.toolId === pending.toolId)
  if (index === -1) return [...next, { dialog: pending, anchor: lastMessageId, answering: false }]
  const entry = next[index] as DialogLogEntry
  // A refreshed pending dialog (same tool id, new object) replaces the stored one while unanswered.
  if (entry.dialog.outcome === undefined && entry.dialog !== pending) {
    return replace(next, index, { ...entry, dialog: pending })
  }
  return next
}

/** Marks an answer as in flight (`answering`), or records its outcome once it was delivered. */
export function markAnswering(log: DialogLog, toolId: string, answering: boolean): DialogLog {
  const index = log.findIndex((entry) => entry.dialog.toolId === toolId)
  if (index === -1) return log
  const entry = log[index] as DialogLogEntry
  return entry.answering === answering ? log : replace(log, index, { ...entry, answering })
}

export function recordAnswer(log: DialogLog, toolId: string, answer: DialogAnswerInput): DialogLog {
  const index = log.findIndex((entry) => entry.dialog.toolId === toolId)
  if (index === -1) return log
  const entry = log[index] as DialogLogEntry
  return replace(log, index, { ...entry, answering: false, dialog: { ...entry.dialog, outcome: outcomeOfAnswer(answer) } })
}

/** After a failed answer: back to pending if the agent still shows it, else dismissed. */
export function recordAnswerFailed(log: DialogLog, toolId: string, pending: Dialog | undefined): DialogLog {
  const cleared = markAnswering(log, toolId, false)
  return observePending(cleared, pending, null)
}

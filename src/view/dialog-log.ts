import type { Dialog, DialogAnswerInput, DialogOutcome } from '../contract/dialog.js'

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
  /** Length of the host message's text when the dialog arrived: where later text splits off (layoutStream). */
  offset?: number
}

export type DialogLog = readonly DialogLogEntry[]

/** The outcome a successful answer from the chat records, in the shape seed 001 pins. */
export function outcomeOfAnswer(answer: DialogAnswerInput): DialogOutcome {
  if (answer.kind === 'question') return { dismissed: false, approved: false, results: answer.answers }
  // An empty feedback string is no feedback.
  return { dismissed: false, approved: answer.approved, ...(answer.feedback ? { feedback: answer.feedback } : {}) }
}

const DISMISSED: DialogOutcome = Object.freeze({ dismissed: true, approved: false })

/** Applies `change` to every entry; the same array back when no entry changed. */
function mapLog(log: DialogLog, change: (entry: DialogLogEntry) => DialogLogEntry): DialogLog {
  const next = log.map(change)
  return next.some((entry, index) => entry !== log[index]) ? next : log
}

/**
 * Folds the agent's current pending dialog into the log. A new tool id is appended (anchored
 * after `lastMessageId`, with `offset`, the length of that message's text then); a refreshed pending dialog (same tool id, new object) replaces the
 * stored one while unanswered; a pending entry that is no longer the agent's pending dialog and
 * was not being answered is recorded as dismissed, never left looking pending.
 */
export function observePending(log: DialogLog, pending: Dialog | undefined, lastMessageId: string | null, offset?: number): DialogLog {
  const next = mapLog(log, (entry) => {
    const { dialog } = entry
    if (dialog.outcome !== undefined) return entry
    if (dialog.toolId === pending?.toolId) return dialog === pending ? entry : { ...entry, dialog: pending }
    return entry.answering ? entry : { ...entry, dialog: { ...dialog, outcome: DISMISSED } }
  })
  if (pending === undefined || next.some((entry) => entry.dialog.toolId === pending.toolId)) return next
  return [...next, { dialog: pending, anchor: lastMessageId, answering: false, ...(offset === undefined ? {} : { offset }) }]
}

/** Marks an answer to `toolId` as in flight (`answering`) or no longer in flight. */
export function markAnswering(log: DialogLog, toolId: string, answering: boolean): DialogLog {
  return mapLog(log, (entry) => (entry.dialog.toolId === toolId && entry.answering !== answering ? { ...entry, answering } : entry))
}

/** Records a delivered answer's outcome. */
export function recordAnswer(log: DialogLog, toolId: string, answer: DialogAnswerInput): DialogLog {
  return mapLog(log, (entry) => (entry.dialog.toolId === toolId
    ? { ...entry, answering: false, dialog: { ...entry.dialog, outcome: outcomeOfAnswer(answer) } }
    : entry))
}

/** After a failed answer: back to pending if the agent still shows it, else dismissed. */
export function recordAnswerFailed(log: DialogLog, toolId: string, pending: Dialog | undefined): DialogLog {
  return observePending(markAnswering(log, toolId, false), pending, null)
}

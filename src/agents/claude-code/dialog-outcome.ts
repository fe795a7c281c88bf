import type { Dialog, DialogAnswer, DialogOutcome, DialogQuestion } from '../../contract/dialog.js'
import { asObject, str } from './record-fields.js'

/**
 * How a resolved dialog was answered, read from the event that carries its `tool_result`
 * (seed 001, "best-effort and display-only"). Pure; never returns a pending-looking value.
 */

/** The ground truth the CLI records when a dialog resolves. */
export interface DialogResolution {
  /** Top-level `toolUseResult`: an object when answered/approved, a string when declined. */
  toolUseResult: unknown
  /** Top-level `toolDenialKind` (2.1.198+), e.g. "user-rejected". */
  denialKind?: string
  /** The `tool_result` block's text. */
  content: string
  isError: boolean
}

const FEEDBACK_MARKER = 'the user said:\n'
const MULTI_SEPARATOR = ', '

export function isDenial(resolution: DialogResolution): boolean {
  return typeof resolution.toolUseResult === 'string' || resolution.denialKind === 'user-rejected'
}

/** A dialog that ended without any resolution (an interrupt, or the next prompt). */
export const DISMISSED: DialogOutcome = Object.freeze({ dismissed: true, approved: false })

export function outcomeFor(dialog: Dialog, resolution: DialogResolution): DialogOutcome {
  return dialog.kind === 'plan' ? planOutcome(resolution) : questionOutcome(dialog, resolution)
}

/**
 * A declined plan is a rejection (not approved, not dismissed) carrying the text after the last
 * "the user said:\n" as feedback; an object result is an approval; nothing readable is dismissed.
 */
function planOutcome(resolution: DialogResolution): DialogOutcome {
  if (isDenial(resolution)) {
    const source = typeof resolution.toolUseResult === 'string' ? resolution.toolUseResult : resolution.content
    const at = source.lastIndexOf(FEEDBACK_MARKER)
    const feedback = at === -1 ? '' : source.slice(at + FEEDBACK_MARKER.length).trim()
    return feedback === '' ? { dismissed: false, approved: false } : { dismissed: false, approved: false, feedback }
  }
  const result = asObject(resolution.toolUseResult)
  return result !== undefined && Object.keys(result).length > 0 ? { dismissed: false, approved: true } : { ...DISMISSED }
}

/**
 * One result per question in dialog order (never the answers map's order). A denial, a missing
 * result or an empty `answers` map (the unattended timeout) is dismissed.
 */
function questionOutcome(dialog: Dialog, resolution: DialogResolution): DialogOutcome {
  if (isDenial(resolution)) return { ...DISMISSED }
  const answers = asObject(asObject(resolution.toolUseResult)?.answers)
  if (answers === undefined || Object.keys(answers).length === 0) return { ...DISMISSED }
  const questions: DialogQuestion[] = dialog.questions ?? [{ question: dialog.prompt, options: dialog.options, multiSelect: dialog.multiSelect }]
  return { dismissed: false, approved: false, results: questions.map((q) => questionResult(q, str(answers[q.question]))) }
}

/**
 * Single-select: an exact label match is chosen, anything else is free text verbatim. Multi-select:
 * a whole-string label match wins (labels may contain ", "); otherwise the record is split on ", "
 * in the order the user toggled, label segments are chosen and the rest re-join as free text.
 * The implicit Other row never matches, so typing "Other" is free text.
 */
export function questionResult(question: DialogQuestion, recorded: string | undefined): DialogAnswer {
  if (recorded === undefined) return { question: question.question, chosen: [] }
  const labels = new Set(question.options.filter((o) => o.isOther !== true).map((o) => o.label))
  if (labels.has(recorded)) return { question: question.question, chosen: [recorded] }
  if (!question.multiSelect) return { question: question.question, chosen: [], otherText: recorded }
  const chosen: string[] = []
  const rest: string[] = []
  for (const part of recorded.split(MULTI_SEPARATOR)) (labels.has(part) ? chosen : rest).push(part)
  const otherText = rest.join(MULTI_SEPARATOR)
  return otherText === '' ? { question: question.question, chosen } : { question: question.question, chosen, otherText }
}

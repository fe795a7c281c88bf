import { ChatrailError } from '../../../contract/errors.js'
import type { Dialog, DialogAnswerInput } from '../../../contract/dialog.js'
import type { JsonRecord } from '../../process/json-value.js'
import type { PermissionDecision } from './claude-control-request.js'

/**
 * How a chat's answer to a Claude Code dialog is delivered: live as a `can_use_tool` decision, or
 * as the text of the next user turn when no CLI is waiting. Pure.
 */

// The CLI's own wording for a rejected tool use (seen in transcripts 2.1.x), so the reader's
// outcome rules (feedback after the last "the user said:\n") read our answers like the picker's.
const REJECTED = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."

export function assertAnswerFits(dialog: Dialog, answer: DialogAnswerInput): void {
  if (dialog.kind !== answer.kind) {
    throw new ChatrailError({
      code: 'DIALOG_ANSWER_MISMATCH',
      message: `Dialog ${dialog.toolId} is a ${dialog.kind} dialog but the answer is for a ${answer.kind} dialog.`,
      hint: dialog.kind === 'question' ? "Answer with { kind: 'question', answers: [...] }." : "Answer with { kind: 'plan', approved, feedback? }.",
    })
  }
}

/** One answer per question, as the picker writes it: chosen labels joined by ", ", then free text. */
function answerValue(chosen: readonly string[], otherText: string | undefined): string {
  return [...chosen, ...(otherText ? [otherText] : [])].join(', ')
}

/** The `can_use_tool` decision that delivers `answer` to the waiting CLI. */
export function decisionForAnswer(dialog: Dialog, input: JsonRecord, answer: DialogAnswerInput): PermissionDecision {
  assertAnswerFits(dialog, answer)
  if (answer.kind === 'question') {
    const answers: Record<string, string> = {}
    for (const item of answer.answers) answers[item.question] = answerValue(item.chosen, item.otherText)
    return { behavior: 'allow', updatedInput: { ...input, answers } }
  }
  if (answer.approved) return { behavior: 'allow', updatedInput: input }
  return {
    behavior: 'deny',
    message: answer.feedback
      ? `${REJECTED} To tell you how to proceed, the user said:\n${answer.feedback}`
      : `${REJECTED} STOP what you are doing and wait for the user to tell you how to proceed.`,
  }
}

/** The next user message that carries `answer` when the dialog can no longer be answered live. */
export function answerAsNextTurn(dialog: Dialog, answer: DialogAnswerInput): string {
  assertAnswerFits(dialog, answer)
  if (answer.kind === 'question') {
    const lines = answer.answers.map((item) => `"${item.question}" = "${answerValue(item.chosen, item.otherText)}"`)
    return `My answers to your questions: ${lines.join(', ')}.`
  }
  if (answer.approved) return 'I approve the plan. Go ahead.'
  return answer.feedback ? `I don't approve the plan. ${answer.feedback}` : "I don't approve the plan. Stop and wait for my instructions."
}

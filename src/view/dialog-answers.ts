import type { Dialog, DialogAnswer, DialogQuestion } from '../contract/dialog.js'

/**
 * The answer rules of a pending question dialog's form and of an answered one's summary (seed
 * 001), for every binding: the form holds one `DialogChoice` per question and only draws it.
 */

/** What the user picked for one question: chosen option labels, and the Other row with its text. */
export interface DialogChoice {
  readonly chosen: readonly string[]
  readonly other: boolean
  readonly otherText: string
}

export const noChoice: DialogChoice = Object.freeze({ chosen: Object.freeze([]), other: false, otherText: '' })

/** Pure: the questions of a dialog: `questions` when it asks several, else the flat prompt/options. */
export function questionsOf(dialog: Dialog): DialogQuestion[] {
  if (dialog.questions !== undefined && dialog.questions.length > 0) return dialog.questions
  return [{ question: dialog.prompt, options: dialog.options, multiSelect: dialog.multiSelect }]
}

/** Pure: the answer a choice gives; the Other row is never a chosen label, its text is `otherText`. */
export function answerOf(question: DialogQuestion, choice: DialogChoice): DialogAnswer {
  const answer: DialogAnswer = { question: question.question, chosen: [...choice.chosen] }
  const text = choice.otherText.trim()
  if (choice.other && text !== '') answer.otherText = text
  return answer
}

/** Pure: the display text of one recorded answer; null when the question went unanswered. */
export function answerText(answer: DialogAnswer | undefined): string | null {
  const parts = answer === undefined ? [] : [...answer.chosen, answer.otherText ?? '']
  return parts.filter((part) => part !== '').join(', ') || null
}

import type { ReactNode } from 'react'
import type { Dialog, DialogAnswer } from '../../src/agents/runstate/dialog.js'
import { questionsOf } from './dialog-question-form.js'
import { PlanMarkdown } from './plan-markdown.js'

/** Pure: the display text of one recorded answer; null when the question went unanswered. */
export function answerText(answer: DialogAnswer | undefined): string | null {
  if (answer === undefined) return null
  const parts = [...answer.chosen]
  if (answer.otherText !== undefined && answer.otherText !== '') parts.push(answer.otherText)
  return parts.length === 0 ? null : parts.join(', ')
}

/**
 * An answered dialog as compact, inert history (seed 001): one Q→A line per question, a
 * "dismissed" marker when no answer landed; a plan keeps its full text behind a disclosure.
 */
export function DialogSummary({ dialog }: { dialog: Dialog }): ReactNode {
  const outcome = dialog.outcome
  if (outcome === undefined) return null
  const state = outcome.dismissed ? 'dismissed' : 'answered'
  const marker = outcome.dismissed && <span data-chatrail-dismissed="">dismissed</span>
  if (dialog.kind === 'plan') {
    const verdict = outcome.dismissed ? null : outcome.approved ? 'Approved' : 'Rejected'
    return (
      <section data-chatrail-dialog="" data-chatrail-dialog-kind="plan" data-chatrail-dialog-state={state} aria-label="Plan (answered)">
        <p data-chatrail-qa-line="">
          <span data-chatrail-qa-q="">Plan</span>
          <span data-chatrail-qa-arrow="" aria-hidden="true">→</span>
          {verdict !== null && <span data-chatrail-qa-a="" data-chatrail-approved={outcome.approved ? '' : undefined}>{verdict}</span>}
          {marker}
        </p>
        {outcome.feedback !== undefined && <p data-chatrail-feedback="">{outcome.feedback}</p>}
        <details data-chatrail-plan-details="">
          <summary>Show plan</summary>
          <PlanMarkdown source={dialog.prompt} />
        </details>
      </section>
    )
  }
  const questions = questionsOf(dialog)
  return (
    <section data-chatrail-dialog="" data-chatrail-dialog-kind="question" data-chatrail-dialog-state={state} aria-label="Question (answered)">
      {questions.map((question, i) => {
        const answer = outcome.results?.find((result) => result.question === question.question) ?? outcome.results?.[i]
        const text = outcome.dismissed ? null : answerText(answer)
        return (
          <p key={i} data-chatrail-qa-line="">
            <span data-chatrail-qa-q="">{question.question}</span>
            <span data-chatrail-qa-arrow="" aria-hidden="true">→</span>
            {text !== null ? <span data-chatrail-qa-a="">{text}</span> : !outcome.dismissed && <span data-chatrail-unanswered="">no answer</span>}
            {i === 0 && marker}
          </p>
        )
      })}
    </section>
  )
}

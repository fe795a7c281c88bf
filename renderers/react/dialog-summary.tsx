import type { ComponentType, ReactNode } from 'react'
import type { Dialog } from '../../src/contract/dialog.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'
import { answerText, questionsOf } from '../../src/view/dialog-answers.js'

export { answerText }

/**
 * An answered dialog as compact, inert history (seed 001): one Q→A line per question (a plan's
 * line says Approved or Rejected, then the feedback), a "dismissed" marker when no answer
 * landed; a plan keeps its full text behind a disclosure.
 */
export function DialogSummary({ dialog, Plan, words }: { dialog: Dialog; Plan: ComponentType<{ source: string; headingLevel?: number }>; words: DialogLabels }): ReactNode {
  const outcome = dialog.outcome
  if (outcome === undefined) return null
  const plan = dialog.kind === 'plan'
  const lines = plan
    ? [{ q: words.plan, a: outcome.approved ? words.approved : words.rejected }]
    : questionsOf(dialog).map((question, i) => ({
      q: question.question,
      a: answerText(outcome.results?.find((result) => result.question === question.question) ?? outcome.results?.[i]),
    }))
  return (
    // A group, not a region: a chat can hold many answered dialogs, and landmarks must be unique.
    <div
      role="group"
      data-chatrail-dialog=""
      data-chatrail-dialog-kind={dialog.kind}
      data-chatrail-dialog-state={outcome.dismissed ? 'dismissed' : 'answered'}
      aria-label={plan ? words.planAnswered : words.questionAnswered}
    >
      {lines.map((line, i) => (
        <p key={i} data-chatrail-qa-line="">
          <span data-chatrail-qa-q="">{line.q}</span>
          <span data-chatrail-qa-arrow="" aria-hidden="true"> → </span>
          {outcome.dismissed
            ? i === 0 && <span data-chatrail-dismissed="">{words.dismissed}</span>
            : line.a === null ? <span data-chatrail-unanswered="">{words.noAnswer}</span> : <span data-chatrail-qa-a="">{line.a}</span>}
        </p>
      ))}
      {outcome.feedback !== undefined && <p data-chatrail-feedback="">{outcome.feedback}</p>}
      {plan && <details><summary>{words.showPlan}</summary><Plan source={dialog.prompt} headingLevel={3} /></details>}
    </div>
  )
}

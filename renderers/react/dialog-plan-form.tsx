import { useId, useState } from 'react'
import type { ReactNode } from 'react'
import type { DialogAnswerInput } from '../../src/contract/dialog.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'

/**
 * The decision on a pending plan: Approve, or Reject with optional feedback (the "Other" row of a
 * plan dialog). The plan itself is rendered in full by the card above this form.
 */
export function DialogPlanForm({ busy, onAnswer, words }: {
  busy: boolean
  words: DialogLabels
  onAnswer: (answer: DialogAnswerInput) => void
}): ReactNode {
  const [feedback, setFeedback] = useState('')
  const id = useId()
  const text = feedback.trim()
  return (
    <form data-chatrail-dialog-form="" onSubmit={(event) => { event.preventDefault(); if (!busy) onAnswer({ kind: 'plan', approved: true }) }}>
      <label htmlFor={id} data-chatrail-feedback-label="">{words.planFeedback}</label>
      <textarea
        id={id}
        data-chatrail-plan-feedback=""
        rows={2}
        value={feedback}
        disabled={busy}
        onChange={(event) => setFeedback(event.target.value)}
      />
      <div data-chatrail-dialog-buttons="">
        <button type="submit" data-chatrail-approve="" disabled={busy}>{words.approvePlan}</button>
        <button
          type="button"
          data-chatrail-reject=""
          disabled={busy}
          onClick={() => onAnswer({ kind: 'plan', approved: false, ...(text === '' ? {} : { feedback: text }) })}
        >
          {text === '' ? words.reject : words.rejectWithFeedback}
        </button>
      </div>
    </form>
  )
}

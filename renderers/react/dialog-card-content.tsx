import { useEffect, useId, useRef, useState } from 'react'
import type { ComponentType, ReactNode } from 'react'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import { dialogLabels } from '../../src/view/dialog-labels.js'
import type { DialogLabels } from '../../src/view/dialog-labels.js'
import { DialogPlanForm } from './dialog-plan-form.js'
import { DialogQuestionForm } from './dialog-question-form.js'
import { DialogSummary } from './dialog-summary.js'

/**
 * What the lazily loaded dialog UI receives from `<DialogCard>` (dialog-card.tsx), which has
 * already resolved the chat and the card's DOM id: this chunk imports nothing from the entry.
 */
export interface DialogCardContentProps {
  dialog: Dialog
  /** The card's DOM id (`dialogCardId`), so the composer and the follow scroll can find it. */
  id: string
  /** Where an answer goes: the `onAnswer` prop, else the chat's `answerDialog`; none when there is no chat. */
  deliver: ((toolId: string, answer: DialogAnswerInput) => Promise<unknown>) | undefined
  /** The entry's `<PlanMarkdown>` (the markdown renderer is its own lazy chunk). */
  Plan: ComponentType<{ source: string; headingLevel?: number }>
  /** The app's overrides of the UI's words (`<ChatSession labels>`), merged over dialog-labels.ts here. */
  labels: Partial<DialogLabels>
}

/**
 * An agent dialog in the chat stream (seed 001). Pending: an interactive card (options,
 * multi-select, an Other row with free text; a plan in full with Approve / Reject with feedback).
 * Answered: a compact Q→A summary. A dialog only the agent's own UI can answer says so.
 */
export function DialogCardContent(props: DialogCardContentProps): ReactNode {
  const words = { ...dialogLabels, ...props.labels }
  return props.dialog.outcome === undefined ? <PendingDialogCard {...props} words={words} /> : <DialogSummary dialog={props.dialog} Plan={props.Plan} words={words} />
}

function PendingDialogCard({ dialog, id, deliver, Plan, words }: DialogCardContentProps & { words: DialogLabels }): ReactNode {
  const [busy, setBusy] = useState(false)
  const card = useRef<HTMLElement>(null)
  // A card that arrives takes the focus (its title is read out, Tab reaches its options); the
  // follow scroll has already placed it, so focusing must not scroll.
  useEffect(() => card.current?.focus({ preventScroll: true }), [])
  const [error, setError] = useState<string | null>(null)
  const titleId = useId()
  const answer = (input: DialogAnswerInput): void => {
    if (deliver === undefined) return
    setBusy(true)
    setError(null)
    deliver(dialog.toolId, input).then(
      () => setBusy(false),
      (failure: unknown) => { setBusy(false); setError(failure instanceof Error ? failure.message : String(failure)) },
    )
  }
  const plan = dialog.kind === 'plan'
  return (
    <section
      ref={card}
      id={id}
      tabIndex={-1}
      data-chatrail-dialog=""
      data-chatrail-dialog-kind={dialog.kind}
      data-chatrail-dialog-state="pending"
      aria-labelledby={titleId}
      aria-busy={busy}
    >
      <h3 id={titleId} data-chatrail-dialog-title="">{plan ? words.agentProposesPlan : words.agentAsks}</h3>
      {plan && <Plan source={dialog.prompt} />}
      {!dialog.answerable
        ? <p data-chatrail-dialog-note="">{plan ? '' : `${dialog.prompt} — `}{words.answerElsewhere}</p>
        : plan
          ? <DialogPlanForm busy={busy} onAnswer={answer} words={words} />
          : <DialogQuestionForm dialog={dialog} busy={busy} onAnswer={answer} words={words} />}
      {error !== null && <p role="alert" data-chatrail-dialog-error="">{error}</p>}
    </section>
  )
}

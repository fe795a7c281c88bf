import { useId, useState } from 'react'
import type { ReactNode } from 'react'
import type { Dialog } from '../../src/agents/runstate/dialog.js'
import type { DialogAnswerInput } from '../../src/agents/runstate/live.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import { DialogPlanForm } from './dialog-plan-form.js'
import { DialogQuestionForm } from './dialog-question-form.js'
import { DialogSummary } from './dialog-summary.js'
import { dialogCardId } from './follow-scroll.js'
import { PlanMarkdown } from './plan-markdown.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export interface DialogCardProps {
  dialog: Dialog
  /** Defaults to the surrounding `<ChatSession>`'s chat. */
  chat?: UseChatSessionReturn<JsonObject>
  /** Replaces `chat.answerDialog` (e.g. to log); a rejection is shown in the card. */
  onAnswer?: (toolId: string, answer: DialogAnswerInput) => Promise<unknown>
}

/**
 * An agent dialog in the chat stream (seed 001). Pending: an interactive card (options,
 * multi-select, an Other row with free text; a plan in full with Approve / Reject with feedback).
 * Answered: a compact Q→A summary. A dialog only the agent's own UI can answer says so.
 */
export function DialogCard({ dialog, chat, onAnswer }: DialogCardProps): ReactNode {
  if (dialog.outcome !== undefined) return <DialogSummary dialog={dialog} />
  return <PendingDialogCard dialog={dialog} chat={chat} onAnswer={onAnswer} />
}

function PendingDialogCard({ dialog, chat, onAnswer }: DialogCardProps): ReactNode {
  const context = useChatFrom(chat, 'DialogCard', onAnswer !== undefined)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const titleId = useId()
  const answer = (input: DialogAnswerInput): void => {
    const deliver = onAnswer ?? context?.answerDialog
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
      id={dialogCardId(dialog.toolId)}
      tabIndex={-1}
      data-chatrail-dialog=""
      data-chatrail-dialog-kind={dialog.kind}
      data-chatrail-dialog-state="pending"
      aria-labelledby={titleId}
      aria-busy={busy}
    >
      <h3 id={titleId} data-chatrail-dialog-title="">{plan ? 'The agent proposes a plan' : 'The agent asks'}</h3>
      {plan && <PlanMarkdown source={dialog.prompt} />}
      {!dialog.answerable
        ? <p data-chatrail-dialog-note="">{plan ? '' : `${dialog.prompt} — `}Answer this in the agent’s own window.</p>
        : plan
          ? <DialogPlanForm busy={busy} onAnswer={answer} />
          : <DialogQuestionForm dialog={dialog} busy={busy} onAnswer={answer} />}
      {error !== null && <p role="alert" data-chatrail-dialog-error="">{error}</p>}
    </section>
  )
}

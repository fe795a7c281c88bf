import { Suspense, useContext, useLayoutEffect, useState } from './react-api.js'
import type { ReactNode } from 'react'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import type { JsonObject } from '../../src/conversation/index.js'
import { useChatFrom } from './chat-context.js'
import type { DialogCardContentProps } from './dialog-card-content.js'
import { loadDialogUI, useDialogUI } from './dialog-ui-loader.js'
import { CardLoadedContext } from './follow-scroll.js'
import { dialogCardId } from '../../src/view/follow-scroll.js'
import { ChatLabelsContext, entryLabels, useLabels } from './labels.js'
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
 *
 * The card's UI is a separate chunk (dialog-ui.ts), loaded on first use or by `preloadDialogUI()`;
 * until it is in, a busy placeholder (`data-chatrail-dialog-state="loading"`) holds the card's
 * place, under this component's own `<Suspense>`, so neither the app nor the server needs one.
 */
export function DialogCard({ dialog, chat, onAnswer }: DialogCardProps): ReactNode {
  // Resolved here, not in the chunk: a pending card without a chat fails at once, as it always did.
  const context = useChatFrom(chat, 'DialogCard', dialog.outcome !== undefined || onAnswer !== undefined)
  // The chunk imports nothing of the entry: the app's labels go in as a prop.
  const labels = useContext(ChatLabelsContext)
  const content: DialogCardContentProps = { dialog, id: dialogCardId(dialog.toolId), deliver: onAnswer ?? context?.answerDialog, Plan: PlanMarkdown, labels }
  return (
    <Suspense fallback={<DialogPlaceholder {...content} />}>
      <LoadedDialogCard {...content} />
    </Suspense>
  )
}

function LoadedDialogCard(props: DialogCardContentProps): ReactNode {
  const ui = useDialogUI()
  const [, setAttempts] = useState(0)
  const cardLoaded = useContext(CardLoadedContext)
  const { toolId } = props.dialog
  // Runs once this card's content is in the DOM, which for a card that waited on the chunk is a tick after its arrival.
  useLayoutEffect(() => cardLoaded?.(toolId), [cardLoaded, toolId])
  if (ui instanceof Error) {
    const retry = (): void => {
      loadDialogUI(true)
      setAttempts((attempts) => attempts + 1)
    }
    return <DialogPlaceholder {...props} failure={ui} onRetry={retry} />
  }
  return <ui.DialogCardContent {...props} />
}

/** The card's place while its UI loads, or, when the load failed, the error and a way to retry. */
function DialogPlaceholder({ dialog, id, failure, onRetry }: DialogCardContentProps & { failure?: Error; onRetry?: () => void }): ReactNode {
  const words = useLabels(entryLabels)
  const plan = dialog.kind === 'plan'
  return (
    <section
      id={id}
      tabIndex={-1}
      data-chatrail-dialog=""
      data-chatrail-dialog-kind={dialog.kind}
      data-chatrail-dialog-state="loading"
      aria-busy={failure === undefined}
    >
      {failure === undefined
        ? <p data-chatrail-dialog-note="">{plan ? words.loadingPlan : words.loadingQuestion}</p>
        : <>
          <p role="alert" data-chatrail-dialog-error="">{`${plan ? words.planNotShown : words.questionNotShown} ${failure.message}`}</p>
          <button type="button" data-chatrail-dialog-retry="" onClick={onRetry}>{words.tryAgain}</button>
        </>}
    </section>
  )
}

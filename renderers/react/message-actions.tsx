import { useContext } from 'react'
import type { ReactNode, Ref } from 'react'
import { BranchPicker } from './branch-picker.js'
import type { MessageBranches } from './branch-picker.js'
import { MessageUIHost, useLabels } from './message-ui-context.js'
import { CopyButton } from './copy-button.js'
import { canReplayLastTurn } from '../../src/view/message-offers.js'
import { focusComposer } from './focus-composer.js'
import { EditIcon, RegenerateIcon } from './icons.js'
import { messageLabels } from '../../src/view/message-labels.js'

export { canReplayLastTurn }

/**
 * Regenerate for the message `messageId` of the surrounding `<MessageList>`'s chat, or undefined:
 * offered where the view says (`regenerable`: the last reply only, asking an earlier one again would
 * drop what came after it; idle; no failure reported, the error banner's Retry being the one way to
 * ask again). `part`: the first part of a reply split around a dialog has no actions.
 */
export function useRegenerate(messageId: string, part: string | undefined): (() => void) | undefined {
  const chat = useContext(MessageUIHost)?.chat
  if (chat === undefined || part === 'before' || chat.ui.regenerable !== messageId) return undefined
  return () => { void chat.regenerate(messageId) }
}

export interface MessageActionsProps {
  /** The text Copy copies; no Copy when empty. */
  text: string
  /** The user stopped this reply: the row says "Stopped". */
  stopped: boolean
  /** Opens the edit form (the user's own messages, not UI events, while no reply streams). */
  onEdit?: () => void
  editButton?: Ref<HTMLButtonElement>
  /** Asks again for this reply: only the chat's last reply, idle, with no failure reported (the error banner has the one Retry). */
  onRegenerate?: () => void
  messageId?: string
  /** The message's versions, when an edit or a regenerate kept another: the "‹ 1/2 ›" picker leads the row. */
  branches?: MessageBranches
}

/**
 * A message's actions (in the message UI chunk), quiet icon buttons on the message they act on
 * (`div[data-chatrail-message-actions]`): the versions picker, the Stopped mark, Copy, Edit, Regenerate. The stylesheet
 * floats the row over the gap below the bubble, shown on hover or focus, so it takes no room; the
 * last reply's row (and a stopped one's) stays in the flow and visible, and on touch screens every
 * row is. Regenerate moves the focus to the composer: the button leaves while the reply streams.
 */
export function MessageActions({ text, stopped, onEdit, editButton, onRegenerate, messageId, branches }: MessageActionsProps): ReactNode {
  const words = useLabels(messageLabels)
  if (!stopped && text === '' && onEdit === undefined && onRegenerate === undefined && branches === undefined) return null
  return (
    <div data-chatrail-message-actions="">
      {branches !== undefined && messageId !== undefined && <BranchPicker messageId={messageId} branches={branches} />}
      {stopped && <span data-chatrail-stopped-mark="">{words.stopped}</span>}
      {text !== '' && <CopyButton text={text} label={words.copyMessage} />}
      {onEdit !== undefined && (
        <button ref={editButton} type="button" data-chatrail-edit-button="" data-chatrail-icon-button="" aria-label={words.editMessage} title={words.editMessage} onClick={onEdit}>
          <EditIcon />
        </button>
      )}
      {onRegenerate !== undefined && (
        <button
          type="button"
          data-chatrail-regenerate=""
          data-chatrail-icon-button=""
          aria-label={words.regenerate}
          title={words.regenerate}
          onClick={(event) => { focusComposer(event.currentTarget); onRegenerate() }}
        >
          <RegenerateIcon />
        </button>
      )}
    </div>
  )
}

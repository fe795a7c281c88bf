import type { ReactNode } from 'react'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'

/**
 * The collapsed composer's note as a button that goes to the pending card ("Waiting for your
 * answer above ↑"): scrolls the card into view and focuses it. In the message UI chunk, so that the
 * entry does not carry it; `<Composer>` shows the bare status words until the chunk is in.
 * `cardId`: the card's element id (`dialogCardId`, passed in: the chunk imports nothing of the entry).
 */
export function DialogLink({ cardId, note }: { cardId: string; note: string }): ReactNode {
  const words = useLabels(messageLabels)
  const focusCard = (): void => {
    const card = document.getElementById(cardId)
    card?.scrollIntoView({ block: 'start' })
    card?.focus({ preventScroll: true })
  }
  return <button type="button" data-chatrail-goto-dialog="" onClick={focusCard}>{note} {words.dialogAbove}</button>
}

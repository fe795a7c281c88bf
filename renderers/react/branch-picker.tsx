import { useContext, useLayoutEffect, useRef } from 'react'
import type { ReactNode } from 'react'
import type { BranchPosition } from '../../src/controller/index.js'
import { MessageUIHost, useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'

/** A message's place among its versions, and how to show another (message UI chunk). */
export interface MessageBranches extends BranchPosition {
  /** Shows version `index` (0-based) of this message's place. */
  switchTo: (index: number) => void
}

type Side = 'previous' | 'next'

/**
 * The button to focus once the picker of `messageId` commits: switching versions of a reply shows
 * a message with another id (a new element), so the focus is handed over by id, not by element.
 */
let handover: { messageId: string; side: Side } | undefined

/**
 * The versions of the message `messageId` of the surrounding `<MessageList>`'s chat, when it has
 * more than one (the view's `versions`: an edit or a regenerate kept the one it replaced), else
 * undefined. `part`: the first part of a reply split around a dialog has no actions.
 */
export function useBranches(messageId: string, part: string | undefined): MessageBranches | undefined {
  const chat = useContext(MessageUIHost)?.chat
  if (chat === undefined || part === 'before') return undefined
  const position = chat.ui.versions.get(messageId)
  if (position === undefined) return undefined
  return {
    ...position,
    switchTo: (index) => {
      const at = chat.view.getSnapshot().messages.findIndex((message) => message.id === messageId)
      if (!chat.view.switchVersion(messageId, index)) return
      const head = chat.view.binding.controller.getState().messages[at]
      if (head !== undefined) handover = { messageId: head.id, side: index < position.index ? 'previous' : 'next' }
    },
  }
}

/**
 * "‹ 1/2 ›" on a message with versions (assistant-ui's BranchPicker): Previous version and Next
 * version, labelled buttons that stay focusable at the ends (`aria-disabled`, so the focus does not
 * fall to the page when the last version is reached), and the count read politely when it changes.
 */
export function BranchPicker({ messageId, branches }: { messageId: string; branches: MessageBranches }): ReactNode {
  const { index, count, switchTo } = branches
  const previous = useRef<HTMLButtonElement>(null)
  const next = useRef<HTMLButtonElement>(null)
  useLayoutEffect(() => {
    if (handover?.messageId !== messageId) return
    const side = handover.side
    handover = undefined
    ;(side === 'previous' ? previous : next).current?.focus()
  }, [messageId, index])
  const words = useLabels(messageLabels)
  const atStart = index === 0
  const atEnd = index === count - 1
  return (
    <span data-chatrail-branch-picker="" role="group" aria-label={words.versions}>
      <button
        ref={previous}
        type="button"
        data-chatrail-icon-button=""
        data-chatrail-branch-previous=""
        aria-label={words.previousVersion}
        title={words.previousVersion}
        aria-disabled={atStart ? 'true' : undefined}
        onClick={() => { if (!atStart) switchTo(index - 1) }}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span data-chatrail-branch-count="" aria-live="polite">
        <span aria-hidden="true">{index + 1}/{count}</span>
        <span data-chatrail-visually-hidden="">{words.versionOf(index + 1, count)}</span>
      </span>
      <button
        ref={next}
        type="button"
        data-chatrail-icon-button=""
        data-chatrail-branch-next=""
        aria-label={words.nextVersion}
        title={words.nextVersion}
        aria-disabled={atEnd ? 'true' : undefined}
        onClick={() => { if (!atEnd) switchTo(index + 1) }}
      >
        <span aria-hidden="true">›</span>
      </button>
    </span>
  )
}

import { useEffect, useState } from 'react'
import type { ReactNode, RefObject } from 'react'
import type { ScrollMetrics } from '../../src/view/follow-scroll.js'
import { ArrowDownIcon } from './icons.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'

export interface JumpToLatestProps {
  /** The chat's scroll container (`<MessageList>`'s log). */
  list: RefObject<HTMLElement | null>
  /** A reply is streaming: the only time the button shows. */
  streaming: boolean
  /** follow-scroll.ts's rule for "at the bottom", handed in so this chunk shares no module with the entry. */
  isFollowing: (metrics: ScrollMetrics) => boolean
}

/**
 * "Jump to latest" (in the message UI chunk): while a reply streams and the reader has scrolled up
 * into history (the follow scroll then leaves them there), a button floats over the bottom edge of
 * the list; a click scrolls to the newest content, where the follow scroll picks the reader up
 * again, and puts the focus on the list (the button leaves). Whether the reader is scrolled up is
 * read from the list's scroll events: arriving content does not move a reader who is up, and a
 * following reader's scroll is set by the follow scroll, which fires one too.
 */
export function JumpToLatest({ list, streaming, isFollowing }: JumpToLatestProps): ReactNode {
  const [scrolledUp, setScrolledUp] = useState(false)
  const words = useLabels(messageLabels)
  useEffect(() => {
    const element = list.current
    if (element === null) return
    const check = (): void => setScrolledUp(!isFollowing(element))
    check()
    element.addEventListener('scroll', check, { passive: true })
    return () => element.removeEventListener('scroll', check)
  }, [list, isFollowing])
  if (!streaming || !scrolledUp) return null
  const jump = (): void => {
    const element = list.current
    if (element === null) return
    element.scrollTop = element.scrollHeight
    element.focus({ preventScroll: true })
    setScrolledUp(false)
  }
  return (
    <div data-chatrail-jump-anchor="">
      <button type="button" data-chatrail-jump-to-latest="" onClick={jump}>
        <ArrowDownIcon />
        {words.jumpToLatest}
      </button>
    </div>
  )
}

import { createContext, useCallback, useLayoutEffect, useRef } from './react-api.js'
import type { RefObject } from 'react'
import type { StreamItem } from '../../src/view/stream-layout.js'
import { dialogCardId, isFollowing, lastUserMessageId, newlyArrivedCards } from '../../src/view/follow-scroll.js'

/**
 * The chat list's follow scroll (seed 001) in React: chatrail/view's rules (src/view/follow-scroll.ts)
 * wired to the list element.
 */

/**
 * What `<MessageList>` hands its dialog cards: a card whose code arrived after the card did (the
 * lazily loaded dialog UI) reports that it mounted, since its height changed outside a stream change.
 */
export const CardLoadedContext = createContext<((toolId: string) => void) | null>(null)

/**
 * Wires the follow scroll to a list element. Whether the reader follows is read from the list
 * itself at each change (its scroll position against the content height it had before the
 * change), never from scroll events, which arrive a frame late and would lose a race with a
 * streaming reply. Returns the `CardLoadedContext` callback: a card that mounts late is followed
 * like any new content (a newly arrived card is scrolled to again, now at its full height).
 */
export function useFollowScroll(list: RefObject<HTMLElement | null>, items: readonly StreamItem[]): (toolId: string) => void {
  const seen = useRef(new Set<string>())
  const lastUser = useRef<string | undefined>(undefined)
  const height = useRef(0)
  // The newest arrived card, the one a following reader is scrolled to.
  const target = useRef<string | undefined>(undefined)

  // After a change of the list's content: keep a following (or just-sent) reader on the new card or at the bottom.
  const follow = useCallback((sent: boolean, toolId: string | undefined): void => {
    const element = list.current
    if (element === null) return
    const following = sent || isFollowing({ scrollTop: element.scrollTop, scrollHeight: height.current, clientHeight: element.clientHeight })
    const card = toolId === undefined ? null : element.querySelector<HTMLElement>(`#${dialogCardId(toolId)}`)
    if (following && card !== null) {
      element.scrollTop += card.getBoundingClientRect().top - element.getBoundingClientRect().top
    } else if (following) {
      element.scrollTop = element.scrollHeight
    }
    height.current = element.scrollHeight
  }, [list])

  useLayoutEffect(() => {
    const arrived = newlyArrivedCards(items, seen.current)
    for (const toolId of arrived) seen.current.add(toolId)
    const user = lastUserMessageId(items)
    // Sending (or editing) is an explicit act: the reader wants to see the reply, wherever they were.
    const sent = user !== lastUser.current
    lastUser.current = user
    if (arrived.length > 0) target.current = arrived[0]
    follow(sent, arrived[0])
  }, [items, follow])

  return useCallback((toolId: string) => follow(false, toolId === target.current ? toolId : undefined), [follow])
}

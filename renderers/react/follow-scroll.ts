import { useCallback, useLayoutEffect, useRef } from 'react'
import type { RefObject } from 'react'
import type { StreamItem } from './stream-layout.js'

/**
 * The chat list's follow scroll (seed 001): the list is the only scroll container; while the
 * reader is at the bottom, new content keeps it there; a dialog card with a not-yet-seen tool id
 * retargets the scroll to the card's top; a reader scrolled up into history is never moved.
 */

/** Pixels from the bottom that still count as "at the bottom" (sub-pixel rounding, a last line). */
export const FOLLOW_SLACK_PX = 48

export interface ScrollMetrics { scrollTop: number; scrollHeight: number; clientHeight: number }

/** Pure: is a reader with these metrics following the newest content? */
export function isFollowing(metrics: ScrollMetrics): boolean {
  return metrics.scrollHeight - metrics.scrollTop - metrics.clientHeight <= FOLLOW_SLACK_PX
}

/** Pure: the pending dialog tool ids in `items` not in `seen`, in stream order. */
export function newlyArrivedCards(items: readonly StreamItem[], seen: ReadonlySet<string>): string[] {
  const arrived: string[] = []
  for (const item of items) if (item.kind === 'dialog' && item.pending && !seen.has(item.dialog.toolId)) arrived.push(item.dialog.toolId)
  return arrived
}

/** The DOM id of a dialog card, so the collapsed composer can point at it. */
export function dialogCardId(toolId: string): string {
  return `chatrail-dialog-${toolId.replace(/[^A-Za-z0-9_-]/g, '_')}`
}

/** Wires the follow scroll to a list element; returns the list's `onScroll` handler. */
export function useFollowScroll(list: RefObject<HTMLElement | null>, items: readonly StreamItem[]): () => void {
  const following = useRef(true)
  const seen = useRef(new Set<string>())
  const onScroll = useCallback(() => {
    const element = list.current
    if (element !== null) following.current = isFollowing(element)
  }, [list])

  useLayoutEffect(() => {
    const element = list.current
    const arrived = newlyArrivedCards(items, seen.current)
    for (const toolId of arrived) seen.current.add(toolId)
    if (element === null || !following.current) return
    const card = arrived.length > 0 ? element.querySelector<HTMLElement>(`#${dialogCardId(arrived[0] as string)}`) : null
    if (card !== null) {
      element.scrollTop += card.getBoundingClientRect().top - element.getBoundingClientRect().top
    } else {
      element.scrollTop = element.scrollHeight
    }
    following.current = isFollowing(element)
  }, [items, list])

  return onScroll
}

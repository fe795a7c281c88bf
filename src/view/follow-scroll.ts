import type { StreamItem } from './stream-layout.js'

/**
 * The rules of a chat list's follow scroll (seed 001), for every binding: the list is the only
 * scroll container; while the reader is at the bottom, new content keeps it there; a dialog card
 * with a not-yet-seen tool id retargets the scroll to the card's top; a reader scrolled up into
 * history is never moved by arriving content (only by sending a message themselves). Pure; each
 * binding wires them to its list element.
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

/**
 * A list's memory of the dialog cards it has shown: called after each change with the stream's
 * items, it returns the tool id of the first newly arrived pending card (the one a following reader
 * is scrolled to), or undefined, and remembers them all as seen.
 */
export function cardArrivals(): (items: readonly StreamItem[]) => string | undefined {
  const seen = new Set<string>()
  return (items) => {
    const arrived = newlyArrivedCards(items, seen)
    for (const toolId of arrived) seen.add(toolId)
    return arrived[0]
  }
}

/** What `followScrollTop` reads of an element (structural: no DOM types in the view model). */
interface Box { getBoundingClientRect(): { top: number } }

/** The list element as `followScrollTop` reads it. */
export interface FollowList extends ScrollMetrics, Box {
  ownerDocument: { getElementById(id: string): Box | null }
}

/**
 * Where a following reader's list scrolls to after a change: the top of the newly arrived card
 * `toolId` if it is on the page, else the bottom.
 */
export function followScrollTop(list: FollowList, toolId: string | undefined): number {
  const card = toolId === undefined ? null : list.ownerDocument.getElementById(dialogCardId(toolId))
  return card === null ? list.scrollHeight : list.scrollTop + card.getBoundingClientRect().top - list.getBoundingClientRect().top
}

/** The DOM id of a dialog card, so the collapsed composer can point at it. */
export function dialogCardId(toolId: string): string {
  return `chatrail-dialog-${toolId.replace(/[^A-Za-z0-9_-]/g, '_')}`
}

/** Pure: the id of the newest user message, whose arrival (the reader just sent it) resumes following. */
export function lastUserMessageId(items: readonly StreamItem[]): string | undefined {
  const item = items.findLast((candidate) => candidate.kind === 'message' && candidate.message.role === 'user')
  return item?.kind === 'message' ? item.message.id : undefined
}

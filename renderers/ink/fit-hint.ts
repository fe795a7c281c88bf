/**
 * The composer's key hint at the terminal's width. Each item has a rank (0 first); items are
 * dropped from the least important until the line fits, and the rest keep their order, so the
 * keys a newcomer needs most (send, quit) survive on a narrow terminal. Pure.
 */

export interface HintItem {
  text: string
  /** Lower is more important; the highest rank is dropped first. */
  rank: number
}

export const HINT_SEPARATOR = ' · '

const widthOf = (text: string): number => [...text].length

/** Pure: the items that fit in `width` columns, joined; the most important alone cut with `…` when even it does not fit. */
export function fitHint(items: readonly HintItem[], width: number): string {
  const kept = [...items]
  const line = (): string => kept.map((item) => item.text).join(HINT_SEPARATOR)
  while (kept.length > 1 && widthOf(line()) > width) {
    const least = kept.reduce((worst, item) => (item.rank >= worst.rank ? item : worst))
    kept.splice(kept.lastIndexOf(least), 1)
  }
  const text = line()
  if (widthOf(text) <= width) return text
  return width <= 0 ? '' : `${[...text].slice(0, width - 1).join('')}…`
}

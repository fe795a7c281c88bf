/**
 * Which of the composer's lines are on the screen. The composer grows with its lines up to
 * `rows`, then scrolls: the window moves only as far as it must to keep the cursor's line in
 * view, so walking up through a long text does not shift every line on every key. Pure.
 */

export interface ComposerWindow {
  /** The first line shown. */
  top: number
  /** How many lines are shown (at most `rows`). */
  shown: number
  /** Lines hidden above / below the window. */
  above: number
  below: number
}

/** The composer shows at most this many lines before it scrolls. */
export const COMPOSER_ROWS = 8

/**
 * The window over `lineCount` lines of at most `rows` lines that holds `cursorLine`, moved as
 * little as possible from `previousTop` (the window of the last render). Pure.
 */
export function composerWindow(lineCount: number, cursorLine: number, rows: number = COMPOSER_ROWS, previousTop = 0): ComposerWindow {
  const count = Math.max(1, lineCount)
  const size = Math.max(1, Math.min(rows, count))
  const line = Math.max(0, Math.min(cursorLine, count - 1))
  let top = Math.max(0, Math.min(previousTop, count - size))
  if (line < top) top = line
  if (line >= top + size) top = line - size + 1
  return { top, shown: size, above: top, below: count - top - size }
}

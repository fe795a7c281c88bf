import stringWidth from 'string-width'

/**
 * The composer's lines as the terminal shows them: a line longer than the composer's width takes
 * several rows, and the composer's height limit (`COMPOSER_ROWS`) counts rows, so a long pasted
 * paragraph scrolls like eight short lines instead of growing past the screen. Pure.
 */

/** One screen row: a piece of logical line `line`, from code point `start`. */
export interface ComposerRow {
  readonly line: number
  readonly start: number
  readonly chars: readonly string[]
}

/**
 * `lines` cut into rows of at most `width` terminal columns (a wide character takes two, a combining
 * mark none; a row always takes at least one character, so nothing is lost at any width). An empty
 * line is one empty row.
 */
export function composerRows(lines: readonly string[], width: number): ComposerRow[] {
  const limit = Math.max(1, Math.floor(width))
  const rows: ComposerRow[] = []
  lines.forEach((text, line) => {
    const chars = [...text]
    let start = 0
    let used = 0
    for (let index = 0; index < chars.length; index += 1) {
      const cells = stringWidth(chars[index] ?? '')
      if (used + cells > limit && index > start) {
        rows.push({ line, start, chars: chars.slice(start, index) })
        start = index
        used = 0
      }
      used += cells
    }
    rows.push({ line, start, chars: chars.slice(start) })
  })
  return rows
}

/**
 * The row the cursor at (`line`, `column`) is on: the row holding that character, or, at the end of
 * a line, the line's last row (the composer keeps a cell free there for the cursor).
 */
export function cursorRowOf(rows: readonly ComposerRow[], line: number, column: number): number {
  let found = 0
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]
    if (row === undefined || row.line > line) break
    if (row.line === line && row.start <= column) found = index
  }
  return found
}

import stringWidth from 'string-width'
import { terminalText } from '../../contract/terminal-text.js'
import type { SessionRow } from './session-rows.js'

/**
 * The sessions table as aligned text columns (agent, project, title, state, what it waits for,
 * why it failed, when it was last active), shared by `chatrail sessions` and its Ink watch view, which
 * colors the same lines. Pure. Control characters in a cell are shown as symbols
 * (contract/terminal-text.ts), so a title cannot retitle or clear the terminal.
 */

export const SESSION_COLUMNS = ['AGENT', 'PROJECT', 'TITLE', 'STATE', 'WAITING FOR', 'DETAIL', 'ACTIVE'] as const

type Column = (typeof SESSION_COLUMNS)[number]

/** Columns left out when no row has anything in them. */
const OPTIONAL: ReadonlySet<string> = new Set(['TITLE', 'WAITING FOR', 'DETAIL'])

/**
 * Which columns give up width first when the table is wider than the terminal (lower first), and
 * the narrowest each gets; `AGENT` and `ACTIVE` keep their values whole.
 */
const SHRINK: Record<Column, { order: number; min: number } | undefined> = {
  TITLE: { order: 0, min: 6 },
  'WAITING FOR': { order: 0, min: 6 },
  DETAIL: { order: 0, min: 6 },
  PROJECT: { order: 1, min: 7 },
  STATE: { order: 2, min: 8 },
  AGENT: undefined,
  ACTIVE: undefined,
}

const GAP = '  '

export interface SessionTableOptions {
  /** The terminal's width: columns shrink (cells cut with `…`) so no line is longer. Default: no limit. */
  width?: number
}

/**
 * Pure. The header line, then one line per row, columns padded to their widest cell. With a
 * `width` (terminal cells), the widest shrinkable column loses a cell at a time until the table
 * fits, every cut cell ending in `…`; below the columns' minimums each line is cut at `width`. No
 * line ever exceeds `width` cells, wide characters included, so a terminal never wraps one.
 */
export function sessionTableLines(rows: readonly SessionRow[], options: SessionTableOptions = {}): string[] {
  // Cells come from files (titles, paths, error text): controls are shown, never sent to the terminal.
  const cell = (text: string): string => terminalText(text, { singleLine: true })
  const all = rows.map((row): Record<Column, string> => ({
    AGENT: cell(row.agent),
    PROJECT: cell(row.project),
    TITLE: cell(row.title),
    STATE: cell(row.state),
    'WAITING FOR': cell(row.waitingFor),
    DETAIL: cell(row.detail),
    ACTIVE: cell(row.lastActivity),
  }))
  const columns = SESSION_COLUMNS.filter((title) => !OPTIONAL.has(title) || all.some((cells) => cells[title] !== ''))
  const widths = columns.map((title) => Math.max(stringWidth(title), ...all.map((cells) => stringWidth(cells[title]))))
  if (options.width !== undefined) shrink(columns, widths, options.width - GAP.length * (columns.length - 1))
  const format = (line: readonly string[]): string => {
    const text = line
      .map((cell, column) => {
        const width = widths[column] ?? 0
        const fitted = cut(cell, width)
        return column === line.length - 1 ? fitted : fitted + ' '.repeat(Math.max(0, width - stringWidth(fitted)))
      })
      .join(GAP)
      .trimEnd()
    return options.width === undefined ? text : cut(text, options.width)
  }
  return [format(columns), ...all.map((cells) => format(columns.map((title) => cells[title])))]
}

/**
 * Narrows columns until their sum fits `room`: the first group in `SHRINK` order, its widest
 * column one character at a time down to its minimum, then the next group.
 */
function shrink(columns: readonly Column[], widths: number[], room: number): void {
  let total = widths.reduce((sum, width) => sum + width, 0)
  for (const order of [0, 1, 2]) {
    while (total > room) {
      let widest = -1
      columns.forEach((title, column) => {
        const rule = SHRINK[title]
        if (rule?.order === order && (widths[column] ?? 0) > rule.min && (widest === -1 || (widths[column] ?? 0) > (widths[widest] ?? 0))) widest = column
      })
      if (widest === -1) break
      widths[widest] = (widths[widest] ?? 0) - 1
      total -= 1
    }
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/**
 * `text` in at most `width` terminal cells, ending in `…` when cut. Widths are cells, not UTF-16
 * units: a CJK character or an emoji takes two, a combining mark none (string-width), and a cut
 * never splits a grapheme.
 */
function cut(text: string, width: number): string {
  if (stringWidth(text) <= width) return text
  if (width <= 0) return ''
  let kept = ''
  let used = 0
  for (const { segment } of graphemes.segment(text)) {
    const cells = stringWidth(segment)
    if (used + cells > width - 1) break
    kept += segment
    used += cells
  }
  return `${kept}…`
}

import { Box, Text, useStdout } from 'ink'
import { useRef } from 'react'
import { composerRows, cursorRowOf } from './composer-rows.js'
import { COMPOSER_ROWS, composerWindow } from './composer-window.js'
import { fitHint } from './fit-hint.js'
import type { HintItem } from './fit-hint.js'
import { linesOf, positionOf } from './line-editor.js'

/** Ctrl+R's search as the composer shows it: the query, the entry it matched (if any), whether the last step failed. */
export interface ComposerSearch {
  query: string
  match?: string
  failed: boolean
}

interface Props {
  input: string
  /** Where the cursor stands, in code points. @default the end of the input */
  cursor?: number
  streaming: boolean
  /** The composer holds an edit of the last user message; Enter resends it. */
  editing: boolean
  /** A pending dialog whose picker was closed: the composer says how to reopen it. */
  dialogClosed?: boolean
  /** A first Esc was pressed on an empty composer: the hint says the next one edits the last message. */
  escArmed?: boolean
  /** Ctrl+R's search is open: the composer is its `(reverse-i-search)` line. */
  search?: ComposerSearch
  /** A message has versions: the hint offers Ctrl+←/→ to walk them. */
  versions?: boolean
  /** Lines shown before the composer scrolls. @default 8 */
  rows?: number
  /** The width the hint is fitted to. @default the terminal's columns (80 when not a terminal) */
  columns?: number
}

/**
 * The input with its cursor, growing with its rows up to `rows` and then scrolling to keep the
 * cursor's row in view (with how many are hidden above and below; a line wider than the terminal
 * takes several rows, cut here rather than by the terminal), and a one-line key
 * hint that follows what the keys would do now, fitted to the terminal's width.
 */
export function Composer({ input, cursor, streaming, editing, dialogClosed = false, escArmed = false, search, versions = false, rows = COMPOSER_ROWS, columns }: Props) {
  const { stdout } = useStdout()
  const width = columns ?? (stdout.columns > 0 ? stdout.columns : 80)
  const hint = <Text dimColor>{fitHint(hintItems({ streaming, editing, dialogClosed, escArmed, searching: search !== undefined, versions }), width)}</Text>
  const top = useRef(0)
  if (search !== undefined) {
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          <Text color={search.failed ? 'red' : 'cyan'}>{search.failed ? '(failed reverse-i-search)' : '(reverse-i-search)'}</Text>
          {`\`${search.query}': `}
          {(search.match ?? '').replace(/\n/g, ' ↵ ')}
        </Text>
        {hint}
      </Box>
    )
  }
  const at = positionOf(input, cursor ?? [...input].length)
  const prompt = editing ? 'edit › ' : '› '
  const indent = ' '.repeat(prompt.length)
  // rows of the width left after the prompt, less one cell for the cursor at a line's end
  const lines = composerRows(linesOf(input), width - prompt.length - 1)
  const cursorRow = cursorRowOf(lines, at.line, at.column)
  const shown = composerWindow(lines.length, cursorRow, rows, top.current)
  top.current = shown.top
  return (
    <Box flexDirection="column">
      {shown.above === 0 ? null : <Text dimColor>{`${indent}↑ ${moreLines(shown.above)}`}</Text>}
      {lines.slice(shown.top, shown.top + shown.shown).map((row, offset) => {
        const index = shown.top + offset
        const column = at.column - row.start
        return (
          <Text key={index}>
            {index === 0 ? <Text color={editing ? 'yellow' : 'cyan'}>{prompt}</Text> : indent}
            {index === cursorRow ? (
              <>
                {row.chars.slice(0, column).join('')}
                <Text inverse>{row.chars[column] ?? ' '}</Text>
                {row.chars.slice(column + 1).join('')}
              </>
            ) : row.chars.join('')}
          </Text>
        )
      })}
      {shown.below === 0 ? null : <Text dimColor>{`${indent}↓ ${moreLines(shown.below)}`}</Text>}
      {hint}
    </Box>
  )
}

const moreLines = (count: number): string => `${count} more line${count === 1 ? '' : 's'}`

interface HintMode {
  streaming: boolean
  editing: boolean
  dialogClosed: boolean
  escArmed: boolean
  searching: boolean
  /** A message has versions (Ctrl+←/→ walk them on an empty composer). @default false */
  versions?: boolean
}

/** Pure: the hint's items for the composer's mode, in the order shown, ranked by what matters most. */
export function hintItems({ streaming, editing, dialogClosed, escArmed, searching, versions = false }: HintMode): HintItem[] {
  const item = (text: string, rank: number): HintItem => ({ text, rank })
  if (searching) return [item('Enter or → accept', 0), item('Ctrl+R older match', 1), item('Esc cancel', 0)]
  if (dialogClosed) return [item('Tab answer the agent', 0), item(streaming ? 'Esc stop the turn' : 'Enter send', 1), item('Ctrl+C quit', 2)]
  if (streaming) return [item('streaming… Esc stop', 0), item('Enter sends anyway', 1), item('Ctrl+J newline', 3), item('Ctrl+C quit', 2)]
  if (editing) return [item('editing your last message', 0), item('Enter resend', 0), item('Esc cancel', 1), item('Ctrl+J newline', 2)]
  if (escArmed) return [item('Esc again to edit your last message', 0), item('any other key cancels', 2), item('Ctrl+C quit', 1)]
  return [
    item('Enter send', 0),
    item('↑ history', 2),
    item('Ctrl+R search', 6),
    item('Esc Esc edit last', 4),
    item('Ctrl+T retry', 5),
    item('Ctrl+G regenerate', 7),
    ...(versions ? [item('Ctrl+←→ versions', 3)] : []),
    item('Ctrl+J newline', 3),
    item('Ctrl+C quit', 1),
  ]
}

/**
 * The composer's editor as a pure reducer over text and a cursor, with the readline keys people
 * expect from a shell: ←/→ (across line ends), ↑/↓ between lines, Home/End and Ctrl+A/E (the
 * current line), Alt+B/F by word, Ctrl+W (the word before the cursor), Ctrl+U / Ctrl+K (the
 * current line before / after the cursor; at the line's edge, the line break, as emacs's
 * kill-line). The text may hold several lines (`\n`); an insert turns `\r\n` and `\r` into `\n`.
 * The cursor counts code points, so an emoji is one step.
 */

export interface LineState {
  text: string
  /** 0 … length in code points; the cursor stands before the code point at this index. */
  cursor: number
}

export type LineEdit =
  | { type: 'insert'; text: string }
  /** Replaces the code point before the cursor (the `\` of `\` + Enter) with `text`. */
  | { type: 'replace-back'; text: string }
  | { type: 'delete-back' }
  | { type: 'delete-forward' }
  | { type: 'delete-word-back' }
  | { type: 'delete-to-start' }
  | { type: 'delete-to-end' }
  | { type: 'move'; to: 'left' | 'right' | 'home' | 'end' | 'word-left' | 'word-right' | 'up' | 'down' }

/** Where a cursor stands: its line and its column in it, both from 0, in code points. */
export interface LinePosition {
  line: number
  column: number
}

/** Pure: `\r\n` and a lone `\r` as `\n`, the one line break the editor knows. */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}

/** Pure: the text's lines (one more than its line breaks). */
export function linesOf(text: string): string[] {
  return text.split('\n')
}

/** Pure: the line and column of `cursor` in `text` (clamped into the text). */
export function positionOf(text: string, cursor: number): LinePosition {
  const chars = [...text]
  const at = Math.max(0, Math.min(cursor, chars.length))
  let line = 0
  let lineStart = 0
  for (let index = 0; index < at; index += 1) {
    if (chars[index] === '\n') {
      line += 1
      lineStart = index + 1
    }
  }
  return { line, column: at - lineStart }
}

/** Pure: the cursor at `position`, the line clamped to the text's lines and the column to that line. */
export function offsetOf(text: string, position: LinePosition): number {
  const lines = linesOf(text)
  const line = Math.max(0, Math.min(position.line, lines.length - 1))
  let offset = 0
  for (let index = 0; index < line; index += 1) offset += [...(lines[index] ?? '')].length + 1
  return offset + Math.max(0, Math.min(position.column, [...(lines[line] ?? '')].length))
}

/** The start of the word before `cursor` (readline's unix-word-rubout: back over blanks, then non-blanks). */
function wordStartBefore(chars: readonly string[], cursor: number): number {
  let index = cursor
  while (index > 0 && /\s/.test(chars[index - 1] ?? '')) index -= 1
  while (index > 0 && !/\s/.test(chars[index - 1] ?? '')) index -= 1
  return index
}

function wordEndAfter(chars: readonly string[], cursor: number): number {
  let index = cursor
  while (index < chars.length && /\s/.test(chars[index] ?? '')) index += 1
  while (index < chars.length && !/\s/.test(chars[index] ?? '')) index += 1
  return index
}

function lineStartOf(chars: readonly string[], cursor: number): number {
  let index = cursor
  while (index > 0 && chars[index - 1] !== '\n') index -= 1
  return index
}

function lineEndOf(chars: readonly string[], cursor: number): number {
  let index = cursor
  while (index < chars.length && chars[index] !== '\n') index += 1
  return index
}

/** Applies one edit. Pure; a cursor out of range is clamped first. */
export function editLine(line: LineState, edit: LineEdit): LineState {
  const chars = [...line.text]
  const cursor = Math.max(0, Math.min(line.cursor, chars.length))
  const join = (before: readonly string[], after: readonly string[]): string => before.join('') + after.join('')
  switch (edit.type) {
    case 'insert': {
      const inserted = [...normalizeLineBreaks(edit.text)]
      return { text: join([...chars.slice(0, cursor), ...inserted], chars.slice(cursor)), cursor: cursor + inserted.length }
    }
    case 'replace-back': {
      if (cursor === 0) return editLine({ text: line.text, cursor }, { type: 'insert', text: edit.text })
      const inserted = [...normalizeLineBreaks(edit.text)]
      return { text: join([...chars.slice(0, cursor - 1), ...inserted], chars.slice(cursor)), cursor: cursor - 1 + inserted.length }
    }
    case 'delete-back':
      return cursor === 0 ? { text: line.text, cursor } : { text: join(chars.slice(0, cursor - 1), chars.slice(cursor)), cursor: cursor - 1 }
    case 'delete-forward':
      return { text: join(chars.slice(0, cursor), chars.slice(cursor + 1)), cursor }
    case 'delete-word-back': {
      const start = wordStartBefore(chars, cursor)
      return { text: join(chars.slice(0, start), chars.slice(cursor)), cursor: start }
    }
    case 'delete-to-start': {
      const start = lineStartOf(chars, cursor)
      // at the start of a line, the line break before it goes: repeated Ctrl+U empties the composer
      const from = start === cursor ? Math.max(0, cursor - 1) : start
      return { text: join(chars.slice(0, from), chars.slice(cursor)), cursor: from }
    }
    case 'delete-to-end': {
      const end = lineEndOf(chars, cursor)
      const to = end === cursor ? Math.min(chars.length, cursor + 1) : end
      return { text: join(chars.slice(0, cursor), chars.slice(to)), cursor }
    }
    case 'move':
      return { text: line.text, cursor: moveCursor(line.text, chars, cursor, edit.to) }
  }
}

function moveCursor(text: string, chars: readonly string[], cursor: number, to: Extract<LineEdit, { type: 'move' }>['to']): number {
  switch (to) {
    case 'left':
      return Math.max(0, cursor - 1)
    case 'right':
      return Math.min(chars.length, cursor + 1)
    case 'home':
      return lineStartOf(chars, cursor)
    case 'end':
      return lineEndOf(chars, cursor)
    case 'word-left':
      return wordStartBefore(chars, cursor)
    case 'word-right':
      return wordEndAfter(chars, cursor)
    case 'up':
    case 'down': {
      // the column is kept where the target line is long enough, else its end
      const { line, column } = positionOf(text, cursor)
      const target = line + (to === 'up' ? -1 : 1)
      if (target < 0 || target >= linesOf(text).length) return cursor
      return offsetOf(text, { line: target, column })
    }
  }
}

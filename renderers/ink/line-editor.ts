/**
 * The composer's one-line editor as a pure reducer over text and a cursor, with the readline
 * keys people expect from a shell: ←/→, Home/End, Ctrl+A/E, Alt+B/F by word, Ctrl+W (the word
 * before the cursor), Ctrl+U (everything before it), Ctrl+K (everything after it). The cursor
 * counts code points, so an emoji is one step.
 */

export interface LineState {
  text: string
  /** 0 … length in code points; the cursor stands before the code point at this index. */
  cursor: number
}

export type LineEdit =
  | { type: 'insert'; text: string }
  | { type: 'delete-back' }
  | { type: 'delete-forward' }
  | { type: 'delete-word-back' }
  | { type: 'delete-to-start' }
  | { type: 'delete-to-end' }
  | { type: 'move'; to: 'left' | 'right' | 'home' | 'end' | 'word-left' | 'word-right' }

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

/** Applies one edit. Pure; a cursor out of range is clamped first. */
export function editLine(line: LineState, edit: LineEdit): LineState {
  const chars = [...line.text]
  const cursor = Math.max(0, Math.min(line.cursor, chars.length))
  const join = (before: readonly string[], after: readonly string[]): string => before.join('') + after.join('')
  switch (edit.type) {
    case 'insert': {
      const inserted = [...edit.text]
      return { text: join([...chars.slice(0, cursor), ...inserted], chars.slice(cursor)), cursor: cursor + inserted.length }
    }
    case 'delete-back':
      return cursor === 0 ? { text: line.text, cursor } : { text: join(chars.slice(0, cursor - 1), chars.slice(cursor)), cursor: cursor - 1 }
    case 'delete-forward':
      return { text: join(chars.slice(0, cursor), chars.slice(cursor + 1)), cursor }
    case 'delete-word-back': {
      const start = wordStartBefore(chars, cursor)
      return { text: join(chars.slice(0, start), chars.slice(cursor)), cursor: start }
    }
    case 'delete-to-start':
      return { text: chars.slice(cursor).join(''), cursor: 0 }
    case 'delete-to-end':
      return { text: chars.slice(0, cursor).join(''), cursor }
    case 'move':
      return { text: line.text, cursor: moveCursor(chars, cursor, edit.to) }
  }
}

function moveCursor(chars: readonly string[], cursor: number, to: Extract<LineEdit, { type: 'move' }>['to']): number {
  switch (to) {
    case 'left':
      return Math.max(0, cursor - 1)
    case 'right':
      return Math.min(chars.length, cursor + 1)
    case 'home':
      return 0
    case 'end':
      return chars.length
    case 'word-left':
      return wordStartBefore(chars, cursor)
    case 'word-right':
      return wordEndAfter(chars, cursor)
  }
}

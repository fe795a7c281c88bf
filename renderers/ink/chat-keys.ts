import type { Key } from 'ink'

/**
 * The keyboard of `<InkChat>` as a pure function, so the bindings read as one table and are
 * tested without a terminal. Lifecycle actions live on keys only: a line starting with `/` is
 * ordinary input, because slash commands belong to the app's routes.
 */

export type ChatKeyAction =
  | { type: 'insert'; text: string }
  | { type: 'delete' }
  | { type: 'clear-input' }
  | { type: 'send' }
  | { type: 'stop' }
  | { type: 'edit-last' }
  | { type: 'cancel-edit' }
  | { type: 'retry' }
  | { type: 'regenerate' }
  | { type: 'event'; index: number }
  | { type: 'open-dialog' }
  | { type: 'quit' }

export interface ChatKeyContext {
  /** The controller is streaming a reply. */
  streaming: boolean
  /** The composer holds an edit of the last user message. */
  editing: boolean
  input: string
  /** A dialog is pending but its picker was closed with Esc. */
  dialogClosed: boolean
}

/** Drops control characters a terminal may send along with text (paste, bracketed paste markers). */
function withoutControlCharacters(text: string): string {
  return [...text].filter((char) => char >= ' ' && char !== '\u007f').join('')
}

/**
 * Maps one keypress to at most one action. Pure; the order of the checks is the precedence:
 * Ctrl chords, then Esc, Enter, arrows, Alt+digit, editing keys, printable text.
 */
export function chatKeyAction(input: string, key: Key, context: ChatKeyContext): ChatKeyAction | undefined {
  if (key.ctrl) {
    if (input === 'r') return context.streaming ? undefined : { type: 'retry' }
    if (input === 'g') return context.streaming ? undefined : { type: 'regenerate' }
    if (input === 'd') return context.input === '' ? { type: 'quit' } : undefined
    if (input === 'u') return { type: 'clear-input' }
    return undefined
  }
  if (key.escape) {
    if (context.streaming) return { type: 'stop' }
    if (context.editing) return { type: 'cancel-edit' }
    return context.input === '' ? undefined : { type: 'clear-input' }
  }
  if (key.return) return context.input.trim() === '' ? undefined : { type: 'send' }
  if (key.upArrow) {
    return context.streaming || context.editing || context.input !== '' ? undefined : { type: 'edit-last' }
  }
  if (key.tab) return context.dialogClosed ? { type: 'open-dialog' } : undefined
  if (key.meta && /^[1-9]$/.test(input)) return { type: 'event', index: Number(input) - 1 }
  if (key.backspace || key.delete) return { type: 'delete' }
  if (key.meta || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return undefined
  const text = withoutControlCharacters(input.replace(/\r\n|\r|\n/g, ' '))
  return text === '' ? undefined : { type: 'insert', text }
}

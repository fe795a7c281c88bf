import type { Key } from 'ink'
import type { LineEdit } from './line-editor.js'

/**
 * The keyboard of `<InkChat>` as a pure function, so the bindings read as one table and are
 * tested without a terminal. Lifecycle actions live on keys only: a line starting with `/` is
 * ordinary input, because slash commands belong to the app's routes.
 */

export type ChatKeyAction =
  | { type: 'edit'; edit: LineEdit }
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
  /** The key is part of a paste: text only, its line breaks become spaces. @default false */
  paste?: boolean
}

/** Drops control characters a terminal may send along with text (paste, bracketed paste markers). */
function withoutControlCharacters(text: string): string {
  return [...text].filter((char) => char >= ' ' && char !== '\u007f').join('')
}

/**
 * Maps one keypress to at most one action. Pure; the order of the checks is the precedence:
 * a paste, Ctrl chords, then Esc, Enter, arrows, Alt+digit, editing keys, printable text.
 */
export function chatKeyAction(input: string, key: Key, context: ChatKeyContext): ChatKeyAction | undefined {
  if (context.paste === true) return insert(input)
  if (key.ctrl) return ctrlAction(input, context)
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
  if (key.meta && input === 'b') return edit({ type: 'move', to: 'word-left' })
  if (key.meta && input === 'f') return edit({ type: 'move', to: 'word-right' })
  // Ink reports the Backspace key (DEL, 0x7f) as `delete`; forward delete is Ctrl+D.
  if (key.backspace || key.delete) return edit({ type: 'delete-back' })
  if (key.leftArrow) return edit({ type: 'move', to: 'left' })
  if (key.rightArrow) return edit({ type: 'move', to: 'right' })
  if (key.home) return edit({ type: 'move', to: 'home' })
  if (key.end) return edit({ type: 'move', to: 'end' })
  if (key.meta || key.downArrow || key.pageUp || key.pageDown) return undefined
  return insert(input)
}

function ctrlAction(input: string, context: ChatKeyContext): ChatKeyAction | undefined {
  switch (input) {
    case 'r':
      return context.streaming ? undefined : { type: 'retry' }
    case 'g':
      return context.streaming ? undefined : { type: 'regenerate' }
    case 'd':
      return context.input === '' ? { type: 'quit' } : edit({ type: 'delete-forward' })
    case 'a':
      return edit({ type: 'move', to: 'home' })
    case 'e':
      return edit({ type: 'move', to: 'end' })
    case 'b':
      return edit({ type: 'move', to: 'left' })
    case 'f':
      return edit({ type: 'move', to: 'right' })
    case 'w':
      return edit({ type: 'delete-word-back' })
    case 'u':
      return edit({ type: 'delete-to-start' })
    case 'k':
      return edit({ type: 'delete-to-end' })
    case 'h':
      return edit({ type: 'delete-back' })
    default:
      return undefined
  }
}

function edit(lineEdit: LineEdit): ChatKeyAction {
  return { type: 'edit', edit: lineEdit }
}

function insert(input: string): ChatKeyAction | undefined {
  const text = withoutControlCharacters(input.replace(/\r\n|\r|\n/g, ' '))
  return text === '' ? undefined : edit({ type: 'insert', text })
}

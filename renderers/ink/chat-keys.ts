import type { Key } from 'ink'
import { linesOf, normalizeLineBreaks, positionOf } from './line-editor.js'
import type { LineEdit } from './line-editor.js'

/**
 * The keyboard of `<InkChat>` as a pure function, so the bindings read as one table and are
 * tested without a terminal. Lifecycle actions live on keys only: a line starting with `/` is
 * ordinary input, because slash commands belong to the app's routes. The keys follow Claude
 * Code's and Codex's habits: ↑/↓ walk the prompt history, Ctrl+R searches it, Esc Esc edits the
 * last message, Shift+Enter (or `\` then Enter, or Ctrl+J) starts a new line.
 */

export type ChatKeyAction =
  | { type: 'edit'; edit: LineEdit }
  | { type: 'clear-input' }
  | { type: 'send' }
  | { type: 'stop' }
  /** The first Esc on an empty, idle composer: the next Esc edits the last message. */
  | { type: 'arm-edit-last' }
  | { type: 'edit-last' }
  | { type: 'cancel-edit' }
  | { type: 'retry' }
  | { type: 'regenerate' }
  /** Ctrl+← / Ctrl+→ on an empty composer: the previous or next version of the latest message that has versions. */
  | { type: 'version'; step: -1 | 1 }
  | { type: 'history-older' }
  | { type: 'history-newer' }
  | { type: 'search-start' }
  | { type: 'search-query'; query: string }
  | { type: 'search-older' }
  | { type: 'search-accept' }
  | { type: 'search-cancel' }
  | { type: 'event'; index: number }
  | { type: 'open-dialog' }
  | { type: 'quit' }

export interface ChatKeyContext {
  /** The controller is streaming a reply. */
  streaming: boolean
  /** The composer holds an edit of the last user message. */
  editing: boolean
  input: string
  /** Where the cursor stands in `input`, in code points. @default the end of the input */
  cursor?: number
  /** A dialog is pending but its picker was closed with Esc. */
  dialogClosed: boolean
  /** The key is part of a paste: text only, its line breaks stay line breaks and never send. @default false */
  paste?: boolean
  /** The last key was a first Esc on an empty, idle composer (`arm-edit-last`). @default false */
  escArmed?: boolean
  /** There is a user message to edit. @default true */
  canEditLast?: boolean
  /** Ctrl+R's search is open; this is its query. @default undefined (no search) */
  searchQuery?: string
  /** A message in history has versions (an edit or a regenerate kept the one it replaced). @default false */
  versions?: boolean
}

/** Drops control characters a terminal may send along with text (paste markers), keeping line breaks. */
function withoutControlCharacters(text: string): string {
  return [...text].filter((char) => char === '\n' || (char >= ' ' && char !== '\u007f')).join('')
}

/**
 * Maps one keypress to at most one action. Pure; the order of the checks is the precedence:
 * a paste, an open search, Ctrl chords, then Esc, Enter, arrows, Alt+digit, editing keys,
 * printable text.
 */
export function chatKeyAction(input: string, key: Key, context: ChatKeyContext): ChatKeyAction | undefined {
  if (context.paste === true) return insert(input)
  if (context.searchQuery !== undefined) return searchKeyAction(input, key, context.searchQuery)
  if (key.ctrl && (key.leftArrow || key.rightArrow)) return versionAction(key.leftArrow ? -1 : 1, context)
  if (key.ctrl) return ctrlAction(input, context)
  if (key.escape) return escapeAction(context)
  if (key.return) return enterAction(key, context)
  // Ctrl+J is LF, which Ink hands over as the text "\n" (Enter is CR)
  if (input === '\n') return newline()
  if (key.upArrow || key.downArrow) return verticalAction(key.upArrow ? 'up' : 'down', context)
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
  if (key.meta || key.pageUp || key.pageDown) return undefined
  return insert(input)
}

/** Ctrl+←/→ move by word in typed text, as in a shell; on an empty, idle composer they walk a message's versions. */
function versionAction(step: -1 | 1, context: ChatKeyContext): ChatKeyAction | undefined {
  if (context.input !== '') return edit({ type: 'move', to: step < 0 ? 'word-left' : 'word-right' })
  return context.streaming || context.editing || context.versions !== true ? undefined : { type: 'version', step }
}

function escapeAction(context: ChatKeyContext): ChatKeyAction | undefined {
  if (context.streaming) return { type: 'stop' }
  if (context.editing) return { type: 'cancel-edit' }
  if (context.input !== '') return { type: 'clear-input' }
  // an edit resends and so ends the agent turn a pending dialog belongs to
  if (context.canEditLast === false || context.dialogClosed) return undefined
  return context.escArmed === true ? { type: 'edit-last' } : { type: 'arm-edit-last' }
}

function enterAction(key: Key, context: ChatKeyContext): ChatKeyAction | undefined {
  // Shift+Enter (kitty's CSI-u and xterm's modifyOtherKeys report it) and Alt+Enter
  if (key.shift || key.meta) return newline()
  const chars = [...context.input]
  const cursor = context.cursor ?? chars.length
  // `\` then Enter, as in a shell: the backslash becomes the line break
  if (cursor > 0 && chars[cursor - 1] === '\\') return edit({ type: 'replace-back', text: '\n' })
  return context.input.trim() === '' ? undefined : { type: 'send' }
}

/** ↑/↓ move between the composer's lines; from its first (last) line they walk the history. */
function verticalAction(direction: 'up' | 'down', context: ChatKeyContext): ChatKeyAction | undefined {
  const { line } = positionOf(context.input, context.cursor ?? [...context.input].length)
  const last = linesOf(context.input).length - 1
  if (direction === 'up' ? line > 0 : line < last) return edit({ type: 'move', to: direction })
  // an edit of the last message is not a draft to swap for an older prompt
  if (context.editing) return undefined
  return { type: direction === 'up' ? 'history-older' : 'history-newer' }
}

/** Keys while Ctrl+R's search is open: typing refines, Ctrl+R goes older, Enter or → accept, Esc or Ctrl+G cancel. */
function searchKeyAction(input: string, key: Key, query: string): ChatKeyAction | undefined {
  if (key.ctrl && input === 'r') return { type: 'search-older' }
  if (key.escape || (key.ctrl && input === 'g')) return { type: 'search-cancel' }
  if (key.return || key.rightArrow || key.leftArrow || key.tab) return { type: 'search-accept' }
  if (key.backspace || key.delete || (key.ctrl && input === 'h')) {
    return query === '' ? undefined : { type: 'search-query', query: [...query].slice(0, -1).join('') }
  }
  if (key.ctrl || key.meta || key.upArrow || key.downArrow || key.home || key.end || key.pageUp || key.pageDown) return undefined
  const text = withoutControlCharacters(input).replace(/\n/g, ' ')
  return text === '' ? undefined : { type: 'search-query', query: query + text }
}

function ctrlAction(input: string, context: ChatKeyContext): ChatKeyAction | undefined {
  switch (input) {
    case 'r':
      return context.editing ? undefined : { type: 'search-start' }
    case 't':
      return context.streaming ? undefined : { type: 'retry' }
    case 'g':
      return context.streaming ? undefined : { type: 'regenerate' }
    case 'j':
      return newline()
    case 'p':
      return verticalAction('up', context)
    case 'n':
      return verticalAction('down', context)
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

function newline(): ChatKeyAction {
  return edit({ type: 'insert', text: '\n' })
}

/** Text (typed or pasted) with its line breaks as `\n`, tabs as a space, other control characters dropped. */
function insert(input: string): ChatKeyAction | undefined {
  const text = withoutControlCharacters(normalizeLineBreaks(input).replace(/\t/g, ' '))
  return text === '' ? undefined : edit({ type: 'insert', text })
}

import type { Key } from 'ink'
import { describe, expect, it } from 'vitest'
import { chatKeyAction } from '../../renderers/ink/chat-keys.js'
import type { ChatKeyContext } from '../../renderers/ink/chat-keys.js'

const noKey: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
}
const idle: ChatKeyContext = { streaming: false, editing: false, input: '', dialogClosed: false }
const press = (input: string, key: Partial<Key> = {}, context: Partial<ChatKeyContext> = {}) =>
  chatKeyAction(input, { ...noKey, ...key }, { ...idle, ...context })

describe('chatKeyAction', () => {
  it('sends on Enter only when the input has text', () => {
    expect(press('\r', { return: true }, { input: 'hello' })).toEqual({ type: 'send' })
    expect(press('\r', { return: true }, { input: '   ' })).toBeUndefined()
  })

  it('treats a slash command as text: lifecycle actions never hide behind /…', () => {
    expect(press('/retry')).toEqual({ type: 'edit', edit: { type: 'insert', text: '/retry' } })
    expect(press('\r', { return: true }, { input: '/retry' })).toEqual({ type: 'send' })
  })

  it('Ctrl+←/→ walk a message\'s versions on an empty, idle composer; in typed text they move by word', () => {
    expect(press('', { ctrl: true, leftArrow: true }, { versions: true })).toEqual({ type: 'version', step: -1 })
    expect(press('', { ctrl: true, rightArrow: true }, { versions: true })).toEqual({ type: 'version', step: 1 })
    expect(press('', { ctrl: true, leftArrow: true }, { versions: true, input: 'ab cd' })).toEqual({ type: 'edit', edit: { type: 'move', to: 'word-left' } })
    expect(press('', { ctrl: true, rightArrow: true }, { input: 'ab cd', cursor: 0 })).toEqual({ type: 'edit', edit: { type: 'move', to: 'word-right' } })
    expect(press('', { ctrl: true, leftArrow: true })).toBeUndefined()
    expect(press('', { ctrl: true, leftArrow: true }, { versions: true, streaming: true })).toBeUndefined()
    expect(press('', { ctrl: true, leftArrow: true }, { versions: true, editing: true })).toBeUndefined()
  })

  it('stops on Esc while streaming, cancels an edit otherwise, then clears the input', () => {
    expect(press('', { escape: true, meta: true }, { streaming: true, editing: true })).toEqual({ type: 'stop' })
    expect(press('', { escape: true, meta: true }, { editing: true })).toEqual({ type: 'cancel-edit' })
    expect(press('', { escape: true, meta: true }, { input: 'draft' })).toEqual({ type: 'clear-input' })
  })

  it('edits the last user message on Esc Esc from an empty, idle composer: the first Esc arms, the second edits', () => {
    expect(press('', { escape: true, meta: true })).toEqual({ type: 'arm-edit-last' })
    expect(press('', { escape: true, meta: true }, { escArmed: true })).toEqual({ type: 'edit-last' })
    expect(press('', { escape: true, meta: true }, { canEditLast: false })).toBeUndefined()
    expect(press('', { escape: true, meta: true }, { escArmed: true, dialogClosed: true })).toBeUndefined()
    expect(press('', { escape: true, meta: true }, { escArmed: true, streaming: true })).toEqual({ type: 'stop' })
    expect(press('', { escape: true, meta: true }, { escArmed: true, input: 'x' })).toEqual({ type: 'clear-input' })
  })

  it('retries on Ctrl+T and regenerates on Ctrl+G, but not while a reply streams', () => {
    expect(press('t', { ctrl: true })).toEqual({ type: 'retry' })
    expect(press('g', { ctrl: true })).toEqual({ type: 'regenerate' })
    expect(press('t', { ctrl: true }, { streaming: true })).toBeUndefined()
    expect(press('g', { ctrl: true }, { streaming: true })).toBeUndefined()
  })

  it('walks the history on ↑/↓ (and Ctrl+P/N) from the first / last line, and moves between lines otherwise', () => {
    expect(press('', { upArrow: true })).toEqual({ type: 'history-older' })
    expect(press('', { upArrow: true }, { input: 'draft' })).toEqual({ type: 'history-older' })
    expect(press('', { upArrow: true }, { streaming: true })).toEqual({ type: 'history-older' })
    expect(press('', { downArrow: true }, { input: 'draft' })).toEqual({ type: 'history-newer' })
    expect(press('p', { ctrl: true })).toEqual({ type: 'history-older' })
    expect(press('n', { ctrl: true })).toEqual({ type: 'history-newer' })
    const twoLines = { input: 'one\ntwo' }
    expect(press('', { upArrow: true }, { ...twoLines, cursor: 5 })).toEqual({ type: 'edit', edit: { type: 'move', to: 'up' } })
    expect(press('', { upArrow: true }, { ...twoLines, cursor: 2 })).toEqual({ type: 'history-older' })
    expect(press('', { downArrow: true }, { ...twoLines, cursor: 2 })).toEqual({ type: 'edit', edit: { type: 'move', to: 'down' } })
    expect(press('', { downArrow: true }, { ...twoLines, cursor: 5 })).toEqual({ type: 'history-newer' })
    // an edit of the last message is not swapped for another prompt
    expect(press('', { upArrow: true }, { editing: true })).toBeUndefined()
  })

  it('opens the reverse search on Ctrl+R; inside it typing refines, Ctrl+R goes older, Enter/→ accept, Esc/Ctrl+G cancel', () => {
    expect(press('r', { ctrl: true })).toEqual({ type: 'search-start' })
    expect(press('r', { ctrl: true }, { editing: true })).toBeUndefined()
    const searching = { searchQuery: 'ord' }
    expect(press('e', {}, searching)).toEqual({ type: 'search-query', query: 'orde' })
    expect(press('', { backspace: true }, searching)).toEqual({ type: 'search-query', query: 'or' })
    expect(press('r', { ctrl: true }, searching)).toEqual({ type: 'search-older' })
    expect(press('\r', { return: true }, searching)).toEqual({ type: 'search-accept' })
    expect(press('', { rightArrow: true }, searching)).toEqual({ type: 'search-accept' })
    expect(press('', { escape: true, meta: true }, searching)).toEqual({ type: 'search-cancel' })
    expect(press('g', { ctrl: true }, searching)).toEqual({ type: 'search-cancel' })
    // Ctrl+G outside the search still regenerates; Alt+digit inside it does nothing
    expect(press('3', { meta: true }, searching)).toBeUndefined()
  })

  it('starts a new line on Shift+Enter, Alt+Enter, Ctrl+J, and on Enter after a backslash (which it replaces)', () => {
    const newline = { type: 'edit', edit: { type: 'insert', text: '\n' } }
    expect(press('\r', { return: true, shift: true }, { input: 'a' })).toEqual(newline)
    expect(press('\r', { return: true, meta: true }, { input: 'a' })).toEqual(newline)
    expect(press('\n', {}, { input: 'a' })).toEqual(newline)
    expect(press('j', { ctrl: true }, { input: 'a' })).toEqual(newline)
    expect(press('\r', { return: true }, { input: 'a\\' })).toEqual({ type: 'edit', edit: { type: 'replace-back', text: '\n' } })
    // only a backslash right before the cursor
    expect(press('\r', { return: true }, { input: 'a\\b', cursor: 3 })).toEqual({ type: 'send' })
  })

  it('sends events on Alt+1…9 and leaves plain digits to the text (order numbers)', () => {
    expect(press('3', { meta: true })).toEqual({ type: 'event', index: 2 })
    expect(press('3')).toEqual({ type: 'edit', edit: { type: 'insert', text: '3' } })
    expect(press('0', { meta: true })).toBeUndefined()
  })

  it('edits text: backspace deletes, control bytes vanish', () => {
    expect(press('', { backspace: true })).toEqual({ type: 'edit', edit: { type: 'delete-back' } })
    expect(press('', { delete: true })).toEqual({ type: 'edit', edit: { type: 'delete-back' } })
    expect(press('ab\u0007c')).toEqual({ type: 'edit', edit: { type: 'insert', text: 'abc' } })
    expect(press('\u0002')).toBeUndefined()
  })

  it('moves and deletes like readline: ←/→, Home/End, Ctrl+A/E/W/U/K, Alt+B/F', () => {
    const edit = (lineEdit: object) => ({ type: 'edit', edit: lineEdit })
    expect(press('', { leftArrow: true })).toEqual(edit({ type: 'move', to: 'left' }))
    expect(press('', { rightArrow: true })).toEqual(edit({ type: 'move', to: 'right' }))
    expect(press('', { home: true })).toEqual(edit({ type: 'move', to: 'home' }))
    expect(press('', { end: true })).toEqual(edit({ type: 'move', to: 'end' }))
    expect(press('a', { ctrl: true })).toEqual(edit({ type: 'move', to: 'home' }))
    expect(press('e', { ctrl: true })).toEqual(edit({ type: 'move', to: 'end' }))
    expect(press('w', { ctrl: true })).toEqual(edit({ type: 'delete-word-back' }))
    expect(press('u', { ctrl: true }, { input: 'abc' })).toEqual(edit({ type: 'delete-to-start' }))
    expect(press('k', { ctrl: true })).toEqual(edit({ type: 'delete-to-end' }))
    expect(press('b', { meta: true })).toEqual(edit({ type: 'move', to: 'word-left' }))
    expect(press('f', { meta: true })).toEqual(edit({ type: 'move', to: 'word-right' }))
  })

  it('takes a paste as text only: its line breaks stay line breaks (CR LF and CR as LF) and never send', () => {
    expect(press('first\r\nsecond\rthird\n', {}, { paste: true, input: 'x' })).toEqual({ type: 'edit', edit: { type: 'insert', text: 'first\nsecond\nthird\n' } })
    expect(press('\n', { return: true }, { paste: true, input: 'x' })).toEqual({ type: 'edit', edit: { type: 'insert', text: '\n' } })
    expect(press('a\tb\u0007', {}, { paste: true })).toEqual({ type: 'edit', edit: { type: 'insert', text: 'a b' } })
  })

  it('reopens a closed dialog on Tab and quits on Ctrl+D from an empty composer', () => {
    expect(press('\t', { tab: true }, { dialogClosed: true })).toEqual({ type: 'open-dialog' })
    expect(press('\t', { tab: true })).toBeUndefined()
    expect(press('d', { ctrl: true })).toEqual({ type: 'quit' })
    expect(press('d', { ctrl: true }, { input: 'x' })).toEqual({ type: 'edit', edit: { type: 'delete-forward' } })
  })
})

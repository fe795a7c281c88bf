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

  it('stops on Esc while streaming, cancels an edit otherwise, then clears the input', () => {
    expect(press('', { escape: true, meta: true }, { streaming: true, editing: true })).toEqual({ type: 'stop' })
    expect(press('', { escape: true, meta: true }, { editing: true })).toEqual({ type: 'cancel-edit' })
    expect(press('', { escape: true, meta: true }, { input: 'draft' })).toEqual({ type: 'clear-input' })
    expect(press('', { escape: true, meta: true })).toBeUndefined()
  })

  it('retries on Ctrl+R and regenerates on Ctrl+G, but not while a reply streams', () => {
    expect(press('r', { ctrl: true })).toEqual({ type: 'retry' })
    expect(press('g', { ctrl: true })).toEqual({ type: 'regenerate' })
    expect(press('r', { ctrl: true }, { streaming: true })).toBeUndefined()
    expect(press('g', { ctrl: true }, { streaming: true })).toBeUndefined()
  })

  it('edits the last user message on ↑ only from an empty, idle composer', () => {
    expect(press('', { upArrow: true })).toEqual({ type: 'edit-last' })
    expect(press('', { upArrow: true }, { input: 'draft' })).toBeUndefined()
    expect(press('', { upArrow: true }, { streaming: true })).toBeUndefined()
    expect(press('', { upArrow: true }, { editing: true })).toBeUndefined()
  })

  it('sends events on Alt+1…9 and leaves plain digits to the text (order numbers)', () => {
    expect(press('3', { meta: true })).toEqual({ type: 'event', index: 2 })
    expect(press('3')).toEqual({ type: 'edit', edit: { type: 'insert', text: '3' } })
    expect(press('0', { meta: true })).toBeUndefined()
  })

  it('edits text: backspace deletes, pasted newlines become spaces, control bytes vanish', () => {
    expect(press('', { backspace: true })).toEqual({ type: 'edit', edit: { type: 'delete-back' } })
    expect(press('', { delete: true })).toEqual({ type: 'edit', edit: { type: 'delete-back' } })
    expect(press('a\nb\u0007c')).toEqual({ type: 'edit', edit: { type: 'insert', text: 'a bc' } })
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

  it('takes a paste as text only: its line breaks never send', () => {
    expect(press('first\rsecond\n', {}, { paste: true, input: 'x' })).toEqual({ type: 'edit', edit: { type: 'insert', text: 'first second ' } })
    expect(press('\n', { return: true }, { paste: true, input: 'x' })).toEqual({ type: 'edit', edit: { type: 'insert', text: ' ' } })
  })

  it('reopens a closed dialog on Tab and quits on Ctrl+D from an empty composer', () => {
    expect(press('\t', { tab: true }, { dialogClosed: true })).toEqual({ type: 'open-dialog' })
    expect(press('\t', { tab: true })).toBeUndefined()
    expect(press('d', { ctrl: true })).toEqual({ type: 'quit' })
    expect(press('d', { ctrl: true }, { input: 'x' })).toEqual({ type: 'edit', edit: { type: 'delete-forward' } })
  })
})

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
    expect(press('/retry')).toEqual({ type: 'insert', text: '/retry' })
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
    expect(press('3')).toEqual({ type: 'insert', text: '3' })
    expect(press('0', { meta: true })).toBeUndefined()
  })

  it('edits text: backspace deletes, Ctrl+U clears, pasted newlines become spaces, control bytes vanish', () => {
    expect(press('', { backspace: true })).toEqual({ type: 'delete' })
    expect(press('u', { ctrl: true }, { input: 'abc' })).toEqual({ type: 'clear-input' })
    expect(press('a\nb\u0007c')).toEqual({ type: 'insert', text: 'a bc' })
    expect(press('\u0001')).toBeUndefined()
  })

  it('reopens a closed dialog on Tab and quits on Ctrl+D from an empty composer', () => {
    expect(press('\t', { tab: true }, { dialogClosed: true })).toEqual({ type: 'open-dialog' })
    expect(press('\t', { tab: true })).toBeUndefined()
    expect(press('d', { ctrl: true })).toEqual({ type: 'quit' })
    expect(press('d', { ctrl: true }, { input: 'x' })).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { noKey, readKeys } from '../../renderers/ink/key-events.js'
import type { KeyEvent } from '../../renderers/ink/key-events.js'
import { editLine } from '../../renderers/ink/line-editor.js'
import type { LineEdit, LineState } from '../../renderers/ink/line-editor.js'

const idle = { pasting: false }
const summary = (events: KeyEvent[]) => events.map((event) => {
  const flags = Object.entries(event.key).filter(([, on]) => on === true).map(([name]) => name)
  return `${JSON.stringify(event.input)}${flags.length > 0 ? `+${flags.join('+')}` : ''}${event.paste ? ' (paste)' : ''}`
})

describe('readKeys', () => {
  it('splits a burst that arrived in one read into its keys', () => {
    expect(summary(readKeys('\u007F\u007F\u007F', noKey, idle).events)).toEqual(['""+backspace', '""+backspace', '""+backspace'])
    expect(summary(readKeys('hello\r', noKey, idle).events)).toEqual(['"hello"', '""+return'])
    expect(summary(readKeys('ab\u0017c\t', noKey, idle).events)).toEqual(['"ab"', '"w"+ctrl', '"c"', '""+tab'])
  })

  it('passes a key Ink recognised through unchanged', () => {
    const key = { ...noKey, leftArrow: true }
    expect(readKeys('', key, idle).events).toEqual([{ input: '', key, paste: false }])
    expect(readKeys('x', noKey, idle).events).toEqual([{ input: 'x', key: noKey, paste: false }])
  })

  it('takes a bracketed paste as text, its Enter included, until the end marker', () => {
    let step = readKeys('[200~', noKey, idle)
    expect(step).toEqual({ events: [], state: { pasting: true } })
    step = readKeys('one\rtwo\r\nthree', noKey, step.state)
    expect(summary(step.events)).toEqual(['"one\\ntwo\\nthree" (paste)'])
    step = readKeys('', { ...noKey, return: true }, step.state)
    expect(summary(step.events)).toEqual(['"\\n" (paste)'])
    step = readKeys('[201~', noKey, step.state)
    expect(step.state.pasting).toBe(false)
  })

  it('keeps a CR LF split between two reads of a paste as one line break', () => {
    let step = readKeys('[200~', noKey, idle)
    step = readKeys('one\r', noKey, step.state)
    expect(summary(step.events)).toEqual(['"one\\n" (paste)'])
    step = readKeys('\ntwo', noKey, step.state)
    expect(summary(step.events)).toEqual(['"two" (paste)'])
  })

  it('names the keys Ink leaves raw: modifyOtherKeys Shift+Enter, Esc Esc read at once, LF (Ctrl+J) in a burst', () => {
    expect(summary(readKeys('[27;2;13~', noKey, idle).events)).toEqual(['"\\r"+return+shift'])
    expect(summary(readKeys('[27;3;13~', noKey, idle).events)).toEqual(['"\\r"+return+meta'])
    const escape = { ...noKey, escape: true, meta: true }
    expect(summary(readKeys('\u001B', escape, idle).events)).toEqual(['""+escape+meta', '""+escape+meta'])
    expect(summary(readKeys('', escape, idle).events)).toEqual(['""+escape+meta'])
    expect(summary(readKeys('ab\n', noKey, idle).events)).toEqual(['"ab"', '"\\n"'])
  })

  it('treats a line break followed by more text in one read as a paste (terminals without bracketed paste)', () => {
    expect(summary(readKeys('line one\rline two', noKey, idle).events)).toEqual(['"line one\\rline two" (paste)'])
  })
})

describe('editLine', () => {
  const apply = (line: LineState, ...edits: LineEdit[]) => edits.reduce(editLine, line)
  const at = (text: string, cursor = [...text].length): LineState => ({ text, cursor })

  it('inserts and deletes at the cursor', () => {
    expect(apply(at('helo', 3), { type: 'insert', text: 'l' })).toEqual(at('hello', 4))
    expect(apply(at('hello', 1), { type: 'delete-back' })).toEqual(at('ello', 0))
    expect(apply(at('hello', 0), { type: 'delete-back' })).toEqual(at('hello', 0))
    expect(apply(at('hello', 0), { type: 'delete-forward' })).toEqual(at('ello', 0))
  })

  it('moves by character, word and line, clamped at both ends', () => {
    expect(apply(at('ab'), { type: 'move', to: 'right' })).toEqual(at('ab', 2))
    expect(apply(at('ab', 0), { type: 'move', to: 'left' })).toEqual(at('ab', 0))
    expect(apply(at('one two  three'), { type: 'move', to: 'word-left' })).toEqual(at('one two  three', 9))
    expect(apply(at('one two', 0), { type: 'move', to: 'word-right' }, { type: 'move', to: 'word-right' })).toEqual(at('one two', 7))
    expect(apply(at('abc', 1), { type: 'move', to: 'end' })).toEqual(at('abc', 3))
    expect(apply(at('abc', 1), { type: 'move', to: 'home' })).toEqual(at('abc', 0))
  })

  it('kills like readline: Ctrl+W the word before the cursor, Ctrl+U before it, Ctrl+K after it', () => {
    expect(apply(at('where is  my', 10), { type: 'delete-word-back' })).toEqual(at('where my', 6))
    expect(apply(at('where is my', 6), { type: 'delete-to-start' })).toEqual(at('is my', 0))
    expect(apply(at('where is my', 5), { type: 'delete-to-end' })).toEqual(at('where', 5))
  })

  it('counts code points, so an emoji is one step', () => {
    expect(apply(at('a😀b', 2), { type: 'delete-back' })).toEqual(at('ab', 1))
  })
})

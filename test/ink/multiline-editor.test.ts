import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { composerWindow } from '../../renderers/ink/composer-window.js'
import { editLine, linesOf, offsetOf, positionOf } from '../../renderers/ink/line-editor.js'
import type { LineEdit, LineState } from '../../renderers/ink/line-editor.js'

const apply = (line: LineState, ...edits: LineEdit[]) => edits.reduce(editLine, line)
const at = (text: string, cursor = [...text].length): LineState => ({ text, cursor })
const length = (text: string) => [...text].length

// texts with several lines, blanks, CRs and an emoji, so line ends and code points are exercised
const char = fc.constantFrom('a', 'b', ' ', '\n', '\r', '😀', 'é')
const text = fc.array(char, { maxLength: 30 }).map((chars) => chars.join('').replace(/\r/g, ''))
const edit: fc.Arbitrary<LineEdit> = fc.oneof(
  fc.array(char, { maxLength: 5 }).map((chars): LineEdit => ({ type: 'insert', text: chars.join('') })),
  fc.constantFrom<LineEdit>(
    { type: 'delete-back' }, { type: 'delete-forward' }, { type: 'delete-word-back' }, { type: 'delete-to-start' }, { type: 'delete-to-end' },
    { type: 'replace-back', text: '\n' },
    ...(['left', 'right', 'home', 'end', 'word-left', 'word-right', 'up', 'down'] as const).map((to): LineEdit => ({ type: 'move', to })),
  ),
)
const state = text.chain((t) => fc.nat({ max: length(t) }).map((cursor) => ({ text: t, cursor })))

describe('the multi-line editor (editLine over text with line breaks)', () => {
  it('keeps the cursor within the text and never lets a CR in, whatever the edits', () => {
    fc.assert(fc.property(state, fc.array(edit, { maxLength: 20 }), (start, edits) => {
      let line = start
      for (const step of edits) {
        line = editLine(line, step)
        expect(line.cursor).toBeGreaterThanOrEqual(0)
        expect(line.cursor).toBeLessThanOrEqual(length(line.text))
        expect(line.text).not.toContain('\r')
      }
    }))
  })

  it('restores the text and the cursor when an insert is deleted back', () => {
    fc.assert(fc.property(state, fc.array(char, { minLength: 1, maxLength: 8 }), (start, chars) => {
      const inserted = editLine(start, { type: 'insert', text: chars.join('') })
      const insertedLength = inserted.cursor - start.cursor
      let line = inserted
      for (let index = 0; index < insertedLength; index += 1) line = editLine(line, { type: 'delete-back' })
      expect(line).toEqual(start)
    }))
  })

  it('round-trips a cursor through its line and column, and a position through its offset', () => {
    fc.assert(fc.property(state, ({ text: t, cursor }) => {
      const position = positionOf(t, cursor)
      expect(offsetOf(t, position)).toBe(cursor)
      expect(position.line).toBeLessThan(linesOf(t).length)
      expect(position.column).toBeLessThanOrEqual(length(linesOf(t)[position.line] ?? ''))
    }))
  })

  it('moves up then down back to the same line (and the same column when the line above is as long)', () => {
    fc.assert(fc.property(state, ({ text: t, cursor }) => {
      const { line, column } = positionOf(t, cursor)
      if (line === 0) return
      const back = apply({ text: t, cursor }, { type: 'move', to: 'up' }, { type: 'move', to: 'down' })
      expect(positionOf(t, back.cursor).line).toBe(line)
      if (length(linesOf(t)[line - 1] ?? '') >= column) expect(back.cursor).toBe(cursor)
    }))
  })

  it('normalises CR LF and CR to LF on insert (a paste from Windows or an old Mac)', () => {
    expect(apply(at(''), { type: 'insert', text: 'one\r\ntwo\rthree' })).toEqual(at('one\ntwo\nthree'))
  })

  it('crosses line ends with ←/→ and keeps the column on ↑/↓ (clamped to a shorter line)', () => {
    expect(apply(at('ab\ncd', 3), { type: 'move', to: 'left' })).toEqual(at('ab\ncd', 2))
    expect(apply(at('ab\ncd', 2), { type: 'move', to: 'right' })).toEqual(at('ab\ncd', 3))
    expect(apply(at('abcd\nef', 7), { type: 'move', to: 'up' })).toEqual(at('abcd\nef', 2))
    expect(apply(at('abcd\nef', 4), { type: 'move', to: 'down' })).toEqual(at('abcd\nef', 7))
    expect(apply(at('ab', 1), { type: 'move', to: 'up' })).toEqual(at('ab', 1))
  })

  it('works on the current line for Home/End and Ctrl+U/K, taking the line break at a line edge', () => {
    expect(apply(at('one\ntwo', 6), { type: 'move', to: 'home' })).toEqual(at('one\ntwo', 4))
    expect(apply(at('one\ntwo', 1), { type: 'move', to: 'end' })).toEqual(at('one\ntwo', 3))
    expect(apply(at('one\ntwo', 6), { type: 'delete-to-start' })).toEqual(at('one\no', 4))
    expect(apply(at('one\ntwo', 4), { type: 'delete-to-start' })).toEqual(at('onetwo', 3))
    expect(apply(at('one\ntwo', 1), { type: 'delete-to-end' })).toEqual(at('o\ntwo', 1))
    expect(apply(at('one\ntwo', 3), { type: 'delete-to-end' })).toEqual(at('onetwo', 3))
  })

  it('replaces the backslash before the cursor with a line break (`\\` then Enter)', () => {
    expect(apply(at('first\\'), { type: 'replace-back', text: '\n' })).toEqual(at('first\n'))
  })
})

describe('composerWindow', () => {
  it('grows with the lines up to its rows, then scrolls as little as it must to show the cursor line', () => {
    expect(composerWindow(3, 2, 8)).toEqual({ top: 0, shown: 3, above: 0, below: 0 })
    expect(composerWindow(12, 11, 8)).toEqual({ top: 4, shown: 8, above: 4, below: 0 })
    // moving up inside the window does not move it
    expect(composerWindow(12, 6, 8, 4)).toEqual({ top: 4, shown: 8, above: 4, below: 0 })
    expect(composerWindow(12, 1, 8, 4)).toEqual({ top: 1, shown: 8, above: 1, below: 3 })
  })

  it('always holds the cursor line and never more than its rows', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.nat(60), fc.integer({ min: 1, max: 10 }), fc.nat(60), (count, cursorLine, rows, previous) => {
      const window = composerWindow(count, cursorLine, rows, previous)
      const line = Math.min(cursorLine, count - 1)
      expect(window.shown).toBe(Math.min(rows, count))
      expect(line).toBeGreaterThanOrEqual(window.top)
      expect(line).toBeLessThan(window.top + window.shown)
      expect(window.above + window.shown + window.below).toBe(count)
    }))
  })
})

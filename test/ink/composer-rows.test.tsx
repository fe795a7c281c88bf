import fc from 'fast-check'
import { cleanup, render } from 'ink-testing-library'
import stringWidth from 'string-width'
import { afterEach, describe, expect, it } from 'vitest'
import { Composer } from '../../renderers/ink/composer.js'
import { composerRows, cursorRowOf } from '../../renderers/ink/composer-rows.js'
import { frameText } from './frames.js'

/** The composer's height limit counts the rows the terminal shows, not logical lines (issue 31 item 2). */

afterEach(() => cleanup())

const text = fc.array(fc.constantFrom('a', 'b', ' ', '界', '😀', 'e\u0301', '\u0301'), { maxLength: 60 }).map((chars) => chars.join(''))

describe('composerRows', () => {
  it('loses nothing, keeps order, and fits each row in the width unless one character is wider', () => {
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 30 }), (lines, width) => {
      const rows = composerRows(lines, width)
      lines.forEach((line, index) => {
        const own = rows.filter((row) => row.line === index)
        expect(own.length).toBeGreaterThan(0)
        expect(own.map((row) => row.chars.join('')).join('')).toBe(line)
        let start = 0
        for (const row of own) {
          expect(row.start).toBe(start)
          start += row.chars.length
          if (row.chars.length > 1) expect(stringWidth(row.chars.join(''))).toBeLessThanOrEqual(width)
        }
      })
      expect(rows.map((row) => row.line)).toEqual([...rows.map((row) => row.line)].sort((a, b) => a - b))
    }))
  })

  it('puts the cursor on the row holding its character, at a line end on the line’s last row', () => {
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 20 }), fc.nat(), fc.nat(), (lines, width, pickLine, pickColumn) => {
      const rows = composerRows(lines, width)
      const line = pickLine % lines.length
      const length = [...(lines[line] ?? '')].length
      const column = pickColumn % (length + 1)
      const row = rows[cursorRowOf(rows, line, column)]
      expect(row?.line).toBe(line)
      if (row === undefined) return
      if (column < length) expect(column - row.start).toBeGreaterThanOrEqual(0)
      if (column < length) expect(column - row.start).toBeLessThan(row.chars.length)
      else expect(rows.filter((r) => r.line === line).at(-1)).toBe(row)
    }))
  })
})

describe('Composer with lines wider than the terminal', () => {
  it('shows a long line as rows within the width, the cursor at its end on the last row', () => {
    const long = 'word '.repeat(20).trim()
    const frame = frameText(render(<Composer input={long} streaming={false} editing={false} columns={40} />))
    const rows = frame.split('\n').slice(0, -1)
    expect(rows.length).toBeGreaterThan(2)
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(40)
    expect(rows[0]?.startsWith('› word')).toBe(true)
    expect(rows.slice(1).every((row) => row.startsWith('  '))).toBe(true)
    // (frameText trims the cursor cell after the last word)
    expect(rows.map((row) => row.slice(2)).join('')).toBe(long)
  })

  it('counts rows against its limit: three long lines scroll, saying how many rows are hidden', () => {
    const para = Array.from({ length: 3 }, (_, i) => `${i}${'x'.repeat(99)}`).join('\n')
    const frame = frameText(render(<Composer input={para} streaming={false} editing={false} rows={8} columns={40} />))
    const rows = frame.split('\n')
    // 3 lines of 100 characters at 37 columns are 9 rows: 8 shown, 1 hidden above the cursor at the end
    expect(rows[0]).toBe('  ↑ 1 more line')
    expect(rows.slice(1, -1)).toHaveLength(8)
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(40)
  })
})

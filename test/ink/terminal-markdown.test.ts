import { describe, expect, it } from 'vitest'
import { markdownLines, markdownTitle, wrapLines } from '../../renderers/ink/terminal-markdown.js'
import type { StyledLine } from '../../renderers/ink/terminal-markdown.js'

const text = (lines: readonly StyledLine[]) => lines.map((line) => line.spans.map((span) => span.text).join(''))

describe('terminal markdown', () => {
  it('styles instead of showing markup: headings, emphasis, inline code, links', () => {
    const [heading, , paragraph] = markdownLines('# Plan\n\nUse **bold**, *care*, ~~old~~ and `code`, see [docs](https://example.com/x).')
    expect(heading?.spans).toEqual([{ text: 'Plan', bold: true, underline: true }])
    expect(paragraph?.spans).toEqual([
      { text: 'Use ' }, { text: 'bold', bold: true }, { text: ', ' }, { text: 'care', italic: true }, { text: ', ' },
      { text: 'old', strikethrough: true }, { text: ' and ' }, { text: 'code', color: 'yellow' }, { text: ', see ' },
      { text: 'docs', underline: true }, { text: ' (https://example.com/x)', dim: true }, { text: '.' },
    ])
  })

  it('lays out lists with bullets, numbers and nesting, code blocks under their language, quotes with a bar', () => {
    expect(text(markdownLines('- one\n- two\n  1. inner\n\n```ts\nconst a = 1\n```\n\n> careful'))).toEqual([
      '• one', '• two', '  1. inner', '', 'ts', '  const a = 1', '', '│ careful',
    ])
  })

  it('shows raw HTML as typed and terminal control sequences as symbols, never raw (src/contract/terminal-text.ts)', () => {
    expect(text(markdownLines('<b>bold?</b> hi'))).toEqual(['<b>bold?</b> hi'])
    expect(text(markdownLines('safe\u001B]52;c;cGF5bG9hZA==\u0007 text\u001B[2J'))).toEqual(['safe␛]52;c;cGF5bG9hZA==␇ text␛[2J'])
  })

  it('wraps between words with a hanging indent, cutting only a word longer than the line', () => {
    const lines = wrapLines(markdownLines('1. alpha beta gamma delta epsilon\n\nsupercalifragilistic'), 16)
    expect(text(lines)).toEqual(['1. alpha beta', '   gamma delta', '   epsilon', '', 'supercalifragili', 'stic'])
  })

  it('names a plan by its first heading, else its first line', () => {
    expect(markdownTitle('Intro\n\n## The **real** plan\n')).toBe('The real plan')
    expect(markdownTitle('\n- Move the `orders` table\n- then')).toBe('Move the orders table')
  })
})

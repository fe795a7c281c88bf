import { cleanup, render } from 'ink-testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/message.js'
import { MessageView } from '../../renderers/ink/message-view.js'
import { markdownBlocks, markdownLines, wrapLines } from '../../renderers/ink/terminal-markdown.js'
import type { StyledLine } from '../../renderers/ink/terminal-markdown.js'
import { frameText } from './frames.js'
import { MARKDOWN_REPLY } from './markdown-reply.js'

/** Agent replies are markdown in the terminal: no `##`, `**`, `| --- |` or fences reach the screen. */

afterEach(() => cleanup())

const reply = MARKDOWN_REPLY
const message = (role: Message['role'], content: string, status: Message['status'] = 'complete'): Message => ({ id: role, role, content, status, createdAt: new Date(0) })
const text = (line: StyledLine): string => line.spans.map((span) => span.text).join('')

describe('replies as markdown in Ink', () => {
  it('shows a heading, emphasis, a table in aligned columns and a code block under its language, without the markup', () => {
    const frame = frameText(render(<MessageView message={message('assistant', reply)} />))
    const lines = frame.split('\n')
    expect(frame).not.toMatch(/##|\*\*|\| ?---|```/)
    expect(lines).toContain('Reship options')
    expect(lines).toContain('Order #12345 can be reshipped:')
    const rows = lines.filter((line) => line.includes('│'))
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatch(/^Option\s+│ Days │ Cost$/)
    // every row's separators sit in the same columns
    const bars = rows.map((row) => [...row].flatMap((char, index) => (char === '│' ? [index] : [])))
    expect(new Set(bars.map((at) => at.join(','))).size).toBe(1)
    expect(lines.some((line) => /^─+┼─+┼─+$/.test(line))).toBe(true)
    const label = lines.indexOf('ts')
    expect(label).toBeGreaterThan(0)
    expect(lines[label + 1]).toBe('  reship(12345)')
  })

  it('fits a table to a narrow terminal: the widest column gives up room, cut cells end in …, no line is wider', () => {
    for (const columns of [30, 40, 80]) {
      const lines = wrapLines(markdownLines(reply), columns).map(text)
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(columns)
      const table = lines.filter((line) => line.includes('│'))
      expect(table).toHaveLength(3)
      if (columns < 50) expect(table[1]).toContain('…')
      expect(table[2]).toMatch(/^Express\s+│ 1 +│ 9\.90$/)
    }
  })

  it('keeps what the user typed as typed; a failed reply stays the markdown it streamed as, its error on a line below', () => {
    const typed = frameText(render(<MessageView message={message('user', '**not bold** ## here')} />))
    expect(typed).toContain('**not bold** ## here')
    cleanup()
    const failed = frameText(render(<MessageView message={message('assistant', 'Partial **answer**', 'error')} failure="model unavailable" />))
    expect(failed).toContain('Partial answer\n✗ model unavailable')
  })

  it('puts the streaming cursor after the last line of the reply', () => {
    const frame = frameText(render(<MessageView message={message('assistant', '# Title\n\n- one\n- two', 'streaming')} />))
    expect(frame.split('\n').filter((line) => line !== '').slice(-2)).toEqual(['• one', '• two▍'])
  })
})

describe('markdownBlocks', () => {
  it('cuts at blank lines between blocks, never inside a fenced code block, and loses no text', () => {
    const source = 'Intro line\nsame paragraph\n\n```py\nx = 1\n\n\ny = 2\n```\n\n- a\n- b\n\n\n~~~\n```\n\n~~~\nend'
    expect(markdownBlocks(source)).toEqual(['Intro line\nsame paragraph', '```py\nx = 1\n\n\ny = 2\n```', '- a\n- b', '~~~\n```\n\n~~~\nend'])
  })

  it('a reply laid out block by block reads as the whole reply laid out at once', () => {
    const whole = wrapLines(markdownLines(reply), 60).map(text)
    const blocks = markdownBlocks(reply).flatMap((block, index) => [...(index === 0 ? [] : ['']), ...wrapLines(markdownLines(block), 60).map(text)])
    expect(blocks).toEqual(whole)
  })
})

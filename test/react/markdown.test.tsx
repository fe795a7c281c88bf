// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { Markdown, PlanMarkdown, preloadMessageUI } from '../../renderers/react/index.js'

// Answers and plans both render through markdown-to-jsx, in the lazily loaded message UI chunk
// (message-ui-lazy.test.tsx covers the loading); here it is loaded first, so renders are synchronous.
beforeAll(() => preloadMessageUI())
afterEach(cleanup)

describe('<Markdown>', () => {
  const answer = [
    '# Options', '', 'Some **bold** and `code`.', '', '## Table', '',
    '| a | b |', '| --- | --- |', '| 1 | 2 |', '',
    '- one', '- two', '',
    '```ts', 'const x = 1', '```', '',
    '[docs](https://example.com/docs) [bad](javascript:alert(1)) ![pixel](https://example.com/p.png) <script>alert(1)</script> <b>raw</b>',
  ].join('\n')

  it('renders headings (h3, h4: no gaps, no ids), emphasis, tables and lists as elements', () => {
    const { container } = render(<Markdown source={answer} />)
    expect([...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => [h.tagName, h.textContent, h.id])).toEqual([['H3', 'Options', ''], ['H4', 'Table', '']])
    expect(container.querySelector('strong')?.textContent).toBe('bold')
    expect(container.querySelector('p code')?.textContent).toBe('code')
    expect(container.querySelector('[data-chatrail-table] table th')?.textContent).toBe('a')
    expect([...container.querySelectorAll('ul li')].map((li) => li.textContent)).toEqual(['one', 'two'])
  })

  it('links open safely; a javascript: link is plain text; an image is a link; raw HTML stays text', () => {
    const { container } = render(<Markdown source={answer} />)
    const links = [...container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])
    expect(links).toEqual([['docs', 'https://example.com/docs', 'noopener noreferrer'], ['pixel', 'https://example.com/p.png', 'noopener noreferrer']])
    expect(container.textContent).toContain('bad')
    expect(container.querySelector('img, script, b')).toBeNull()
    expect(container.textContent).toContain('<script>alert(1)</script>')
  })

  it('a code block has its language label and a copy button that copies its text', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { container } = render(<Markdown source={answer} />)
    const block = container.querySelector('[data-chatrail-code]') as HTMLElement
    expect(block.querySelector('[data-chatrail-code-lang]')?.textContent).toBe('ts')
    expect(block.querySelector('pre code')?.textContent).toBe('const x = 1')
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Copy ts code' })) })
    expect(writeText).toHaveBeenCalledWith('const x = 1')
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy()
  })

  it('while streaming, a half-typed emphasis is not shown as raw markers', () => {
    const { container } = render(<Markdown source={'Here is **bol'} streaming />)
    expect(container.textContent).not.toContain('**')
    expect(container.textContent).toContain('Here is')
  })
})

describe('<PlanMarkdown>', () => {
  it('renders a long plan whole, never truncated, under the card title (h4 and down)', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${i + 1}. Step ${i + 1} with **bold** text`)
    const { container } = render(<PlanMarkdown source={['# Plan', '', ...lines, '', 'Final line.'].join('\n')} />)
    expect(container.querySelector('[data-chatrail-plan] h4')?.textContent).toBe('Plan')
    expect(container.querySelectorAll('li')).toHaveLength(500)
    expect(container.querySelectorAll('li')[499]?.textContent).toBe('Step 500 with bold text')
    expect(container.textContent).toContain('Final line.')
  })
})

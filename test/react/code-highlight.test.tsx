// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, beforeAll, expect, it, vi } from 'vitest'
import { Markdown, preloadMessageUI } from '../../renderers/react/index.js'
import { preloadCodeHighlight } from '../../renderers/react/code-highlight-loader.js'
import { messageUIKit } from '../../renderers/react/message-ui-kit.js'

// The highlighter chunk is counted: it must be requested only once a fenced block with a language renders.
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../src/view/code-highlight.js', async (importOriginal) => {
  chunk.loads += 1
  return importOriginal()
})

beforeAll(() => preloadMessageUI())
afterEach(cleanup)

it('a fence without a language: no "text" label, plain code, and no highlighter request', async () => {
  const loadsBefore = chunk.loads
  const { container } = render(<Markdown source={'```\nplain <b>x</b>\n```'} />)
  await act(async () => { await Promise.resolve() })
  expect(container.querySelector('[data-chatrail-code-lang]')).toBeNull()
  expect(container.querySelector('pre code')?.textContent).toBe('plain <b>x</b>')
  expect(container.querySelector('[data-chatrail-highlighted]')).toBeNull()
  expect(container.querySelector('button')?.getAttribute('aria-label')).toBe('Copy code')
  expect(chunk.loads).toBe(0)
  expect(loadsBefore).toBe(0)
})

it('a fence with a language shows plain code first, then highlighted tokens; <script> in code stays text', async () => {
  const source = '```js\nconst s = "<script>alert(1)</script>"\n```'
  const { container } = render(<Markdown source={source} />)
  // The plain block is there at once, while the chunk loads.
  expect(container.querySelector('pre code')?.textContent).toBe('const s = "<script>alert(1)</script>"')
  // The render started the request (the count was 0 before); wait for that same load to settle.
  await act(async () => { await preloadCodeHighlight(messageUIKit) })
  expect(container.querySelector('[data-chatrail-highlighted]')).not.toBeNull()
  expect(chunk.loads).toBe(1)
  expect(container.querySelector('[data-chatrail-code-lang]')?.textContent).toBe('js')
  expect(container.querySelector('.hljs-keyword')?.textContent).toBe('const')
  expect(container.querySelector('script')).toBeNull()
  expect(container.querySelector('pre code')?.textContent).toBe('const s = "<script>alert(1)</script>"')
})

it('an unknown language keeps the label and stays plain', async () => {
  const { container } = render(<Markdown source={'```cobol-85\nDISPLAY "HI".\n```'} />)
  await act(async () => { await Promise.resolve() })
  await vi.waitFor(() => expect(container.querySelector('pre code')?.textContent).toBe('DISPLAY "HI".'))
  expect(container.querySelector('[data-chatrail-code-lang]')?.textContent).toBe('cobol-85')
  expect(container.querySelector('[data-chatrail-highlighted]')).toBeNull()
})

it('highlightCode: tokens whose text is the code exactly; an unknown language is undefined', async () => {
  const { highlightCode } = await import('../../src/view/code-highlight.js')
  const code = 'const x = "<script>alert(1)</script>"'
  const tokens = highlightCode(code, 'ts') ?? []
  expect(tokens.map((token) => token.text).join('')).toBe(code)
  expect(tokens.find((token) => token.text === 'const')?.className).toBe('hljs-keyword')
  expect(highlightCode(code, 'no-such-language')).toBeUndefined()
})


// @vitest-environment happy-dom
import { renderToString } from 'react-dom/server'
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { Markdown, PlanMarkdown } from '../../renderers/react/index.js'

// The message UI chunk (markdown-to-jsx and the message body): its first load fails (a dropped
// connection), which leaves every text readable as plain text.
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../renderers/react/message-ui.js', async (importOriginal) => {
  chunk.loads += 1
  if (chunk.loads === 1) throw new Error('Failed to fetch dynamically imported module')
  return importOriginal()
})

afterEach(cleanup)

it('before the chunk is in, the server renders the markdown source as plain text', () => {
  const html = renderToString(<><Markdown source={'# Title\n\n**bold**'} /><PlanMarkdown source={'1. step **one**'} /></>)
  // renderToString renders a Suspense fallback and leaves the boundary to the client.
  expect(html).toContain('<div data-chatrail-markdown-source=""># Title\n\n**bold**</div>')
  expect(html).toContain('<div data-chatrail-plan=""><!--$!-->')
  expect(html).toContain('<div data-chatrail-markdown-source="">1. step **one**</div>')
  expect(html).not.toContain('<strong>')
})

it('a chunk that failed to load leaves answers and plans readable as text', async () => {
  const { container } = await act(async () => render(<><Markdown source={'**kept**'} /><PlanMarkdown source={'1. step one'} /></>))
  await vi.waitFor(() => expect(chunk.loads).toBe(1))
  await act(async () => { await Promise.resolve() })
  expect([...container.querySelectorAll('[data-chatrail-markdown-source]')].map((el) => el.textContent)).toEqual(['**kept**', '1. step one'])
  expect(container.querySelector('strong')).toBeNull()
})

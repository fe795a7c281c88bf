// @vitest-environment happy-dom
import { renderToString } from 'react-dom/server'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ChatSession, DialogCard, preloadDialogUI, preloadMessageUI } from '../../renderers/react/index.js'
import { planDialog, questionDialog } from './dialogs.js'
import { countingAdapter, supportChat } from './support-chat.js'

// The agent-dialog UI is a lazily loaded chunk (renderers/react/dialog-ui.ts). Every load of it
// goes through this mock's factory, which counts it and hands back the real module. The tests
// run in order: the chunk is not loaded until the second one, and stays loaded after it (the
// live-agent prefetch has its own file, dialog-ui-prefetch.test.tsx, as it needs a fresh registry).
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../renderers/react/dialog-ui.js', async (importOriginal) => {
  chunk.loads += 1
  return importOriginal()
})

afterEach(cleanup)
// The message UI (markdown, actions) is its own lazy chunk (message-ui-lazy.test.tsx): in, so renders are synchronous.
beforeAll(() => preloadMessageUI())

const options = { lint: false }

describe('the lazily loaded dialog UI', () => {
  it('a chat whose adapter is not a live agent never loads it', async () => {
    const adapter = countingAdapter('a plain reply')
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    const input = screen.getByRole('textbox', { name: 'Message' })
    fireEvent.change(input, { target: { value: 'anything unmatched' } })
    await act(async () => { fireEvent.keyDown(input, { key: 'Enter' }) })
    await waitFor(() => expect(screen.getAllByRole('article').at(-1)?.textContent).toContain('a plain reply'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(chunk.loads).toBe(0)
  })

  it('before it loads, the server renders a busy placeholder in the card’s place (rendering starts the load)', async () => {
    const html = renderToString(<DialogCard dialog={questionDialog('toolu_1')} onAnswer={async () => {}} />)
    expect(html).toContain('id="chatrail-dialog-toolu_1"')
    expect(html).toContain('data-chatrail-dialog-state="loading"')
    expect(html).toContain('aria-busy="true"')
    expect(html).toContain('Loading question…')
    expect(html).not.toContain('type="radio"')
    await waitFor(() => expect(chunk.loads).toBe(1))
  })

  it('preloadDialogUI() resolves once the chunk is in, loading it once however often it is called', async () => {
    await expect(Promise.all([preloadDialogUI(), preloadDialogUI()])).resolves.toEqual([undefined, undefined])
    expect(chunk.loads).toBe(1)
  })

  it('once loaded, a card renders at once: no placeholder on the client, the full card on the server', () => {
    render(<DialogCard dialog={planDialog('p1', '# Plan\n\n1. one')} onAnswer={async () => {}} />)
    expect(screen.getByRole('region', { name: 'The agent proposes a plan' }).getAttribute('data-chatrail-dialog-state')).toBe('pending')
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['one'])
    const html = renderToString(<DialogCard dialog={questionDialog('toolu_2')} onAnswer={async () => {}} />)
    expect(html).toContain('data-chatrail-dialog-state="pending"')
    expect(html).toContain('type="radio"')
    expect(chunk.loads).toBe(1)
  })

  it('a pending card without a chat still fails at once, with the same error as before', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<DialogCard dialog={questionDialog('toolu_3')} />)).toThrow(/<DialogCard> has no chat/)
    spy.mockRestore()
  })
})

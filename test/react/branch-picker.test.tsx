// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { supportChat } from './support-chat.js'

// Issue #31 item 9: editing or regenerating keeps the previous version; "‹ 1/2 ›" on the message
// switches between them, by keyboard too, and the conversation follows the version shown.
beforeAll(() => preloadMessageUI())
afterEach(cleanup)

const options = { lint: false }
const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
const log = (): HTMLElement => screen.getByRole('log', { name: 'Messages' })
const articles = (): HTMLElement[] => within(log()).getAllByRole('article')
const texts = (): Array<string | null | undefined> => articles().map((article) => article.querySelector('[data-chatrail-content]')?.textContent)

/** Answers "answer 1", "answer 2", … one per call. */
function numberedAdapter(): AdapterFactory {
  let calls = 0
  return {
    createSource: () => {
      const call = ++calls
      return {
        abort: () => undefined,
        stream: async function* (): AsyncIterableIterator<StreamChunk> {
          yield { type: 'text', content: `answer ${call}` }
          yield { type: 'done' }
        },
      }
    },
  }
}

async function type(text: string): Promise<void> {
  fireEvent.change(composer(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
}

describe('versions picker (issue #31 item 9)', () => {
  it('no picker until a regenerate; then "2/2" on the reply, Previous shows the first answer and keeps the focus', async () => {
    render(<ChatSession definition={supportChat(numberedAdapter())} options={options} />)
    await type('hello')
    await waitFor(() => expect(texts()).toEqual(['hello', 'answer 1']))
    expect(within(log()).queryByRole('group', { name: 'Versions' })).toBeNull()
    await act(async () => { fireEvent.click(within(articles()[1] as HTMLElement).getByRole('button', { name: 'Regenerate' })) })
    await waitFor(() => expect(texts()).toEqual(['hello', 'answer 2']))
    const picker = within(articles()[1] as HTMLElement).getByRole('group', { name: 'Versions' })
    expect(picker.textContent).toContain('Version 2 of 2')
    expect(within(picker).getByRole('button', { name: 'Next version' }).getAttribute('aria-disabled')).toBe('true')
    // Only the message whose versions differ has a picker.
    expect(within(articles()[0] as HTMLElement).queryByRole('group', { name: 'Versions' })).toBeNull()
    const previous = within(picker).getByRole('button', { name: 'Previous version' })
    previous.focus()
    await act(async () => { fireEvent.click(previous) })
    expect(texts()).toEqual(['hello', 'answer 1'])
    const shown = within(articles()[1] as HTMLElement).getByRole('group', { name: 'Versions' })
    expect(shown.textContent).toContain('Version 1 of 2')
    // The reply is another element now (another message id): the focus moved to its picker.
    expect(document.activeElement).toBe(within(shown).getByRole('button', { name: 'Previous version' }))
    expect(document.activeElement?.getAttribute('aria-disabled')).toBe('true')
    // At the start, Previous does nothing.
    await act(async () => { fireEvent.click(document.activeElement as HTMLElement) })
    expect(texts()).toEqual(['hello', 'answer 1'])
    await act(async () => { fireEvent.click(within(shown).getByRole('button', { name: 'Next version' })) })
    expect(texts()).toEqual(['hello', 'answer 2'])
  })

  it('an edit keeps the old question and its answer: the picker on the question switches both, and the state follows', async () => {
    render(<ChatSession definition={supportChat(numberedAdapter())} options={options} />)
    await type('/start')
    await waitFor(() => expect(articles()).toHaveLength(2))
    const stateAfterStart = document.querySelector('[data-chatrail-state]')?.getAttribute('data-chatrail-state')
    await act(async () => { fireEvent.click(within(articles()[0] as HTMLElement).getByRole('button', { name: 'Edit message' })) })
    fireEvent.change(screen.getByRole('textbox', { name: 'Edit message' }), { target: { value: 'just a question' } })
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save and resend' })) })
    await waitFor(() => expect(texts()).toEqual(['just a question', 'answer 1']))
    const stateAfterEdit = document.querySelector('[data-chatrail-state]')?.getAttribute('data-chatrail-state')
    const picker = within(articles()[0] as HTMLElement).getByRole('group', { name: 'Versions' })
    expect(picker.textContent).toContain('Version 2 of 2')
    await act(async () => { fireEvent.click(within(picker).getByRole('button', { name: 'Previous version' })) })
    expect(texts()[0]).toBe('/start')
    expect(document.querySelector('[data-chatrail-state]')?.getAttribute('data-chatrail-state')).toBe(stateAfterStart)
    expect(stateAfterStart).not.toBe(stateAfterEdit)
  })
})

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { canReplayLastTurn } from '../../renderers/react/message-actions.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import type { Message } from '../../src/contract/message.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import { loadModelTurn } from '../../src/controller/model-turn-loader.js'
import { countingAdapter, supportChat } from './support-chat.js'

// Issue #31 items 5 and 6: the actions on the message they act on (Copy, Edit, Regenerate), one
// Retry on an error, an icon Send / Stop as the composer's only button, and Jump to latest while
// a reply streams and the reader is scrolled up. Layout (390 px, no wrap) is checked in Chromium.
// A turn's code too (it loads when the chat is shown): the tests send at once after the mount.
beforeAll(() => Promise.all([preloadMessageUI(), loadModelTurn()]))
afterEach(cleanup)

const options = { lint: false }
const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
const log = (): HTMLElement => screen.getByRole('log', { name: 'Messages' })
const articles = (): HTMLElement[] => within(log()).getAllByRole('article')
const buttonNames = (scope: HTMLElement): string[] => within(scope).queryAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent ?? '')

async function type(text: string): Promise<void> {
  fireEvent.change(composer(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
}

/** Streams "first " at once, then holds the reply open until `release()`; counts its calls. */
function heldAdapter(): AdapterFactory & { release: () => void; calls: () => number } {
  let calls = 0
  let release = (): void => {}
  return {
    calls: () => calls,
    release: () => release(),
    createSource: () => {
      calls += 1
      const held = new Promise<void>((resolve) => { release = resolve })
      return {
        abort: () => release(),
        stream: async function* (): AsyncIterableIterator<StreamChunk> {
          yield { type: 'text', content: 'first ' }
          await held
          yield { type: 'text', content: 'and last.' }
          yield { type: 'done' }
        },
      }
    },
  }
}

describe('per-message actions (issue #31 item 6)', () => {
  it('the first screen: the composer has its one button, Send (disabled while empty), and no Retry or Regenerate anywhere', () => {
    render(<ChatSession definition={supportChat(countingAdapter())} options={options} />)
    const form = composer().closest('form') as HTMLElement
    expect(within(form).getAllByRole('button').map((button) => [button.textContent, (button as HTMLButtonElement).disabled])).toEqual([['Send', true]])
    expect(screen.queryByRole('button', { name: /^(Retry|Regenerate)$/ })).toBeNull()
    fireEvent.change(composer(), { target: { value: 'hi' } })
    expect((within(form).getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('a user message has Copy and Edit; the last reply Copy and Regenerate; an earlier reply Copy only', async () => {
    const adapter = countingAdapter('agent says hi')
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    await type('/start')
    await type('hello')
    await waitFor(() => expect(adapter.calls()).toBe(1))
    await waitFor(() => expect(buttonNames(articles().at(-1) as HTMLElement)).toEqual(['Copy message', 'Regenerate']))
    const [firstAsk, firstReply, secondAsk] = articles() as [HTMLElement, HTMLElement, HTMLElement]
    expect(buttonNames(firstAsk)).toEqual(['Copy message', 'Edit message'])
    expect(buttonNames(firstReply)).toEqual(['Copy message'])
    expect(buttonNames(secondAsk)).toEqual(['Copy message', 'Edit message'])
    // The actions are ordinary buttons in the Tab order, not hidden from the keyboard.
    expect(within(log()).getAllByRole('button').every((button) => button.tabIndex === 0)).toBe(true)
  })

  it('Regenerate asks again for that reply (a new answer, the same question) and puts the focus in the composer', async () => {
    const adapter = countingAdapter('agent says hi')
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    await type('hello')
    await waitFor(() => expect(within(articles().at(-1) as HTMLElement).queryByRole('button', { name: 'Regenerate' })).not.toBeNull())
    const before = articles().at(-1)
    const regenerate = within(before as HTMLElement).getByRole('button', { name: 'Regenerate' })
    regenerate.focus()
    await act(async () => { fireEvent.click(regenerate) })
    await waitFor(() => expect(adapter.calls()).toBe(2))
    await waitFor(() => expect(articles().map((article) => article.querySelector('[data-chatrail-content]')?.textContent)).toEqual(['hello', 'agent says hi']))
    expect(document.activeElement).toBe(composer())
  })

  it('while a reply streams: Stop is the composer\'s one button, and no message offers Regenerate or Edit', async () => {
    const adapter = heldAdapter()
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    await type('hello')
    await waitFor(() => expect(articles().at(-1)?.textContent).toContain('first'))
    const form = composer().closest('form') as HTMLElement
    expect(within(form).getAllByRole('button').map((button) => button.textContent)).toEqual(['Stop'])
    expect(within(log()).queryByRole('button', { name: /^(Regenerate|Edit message)$/ })).toBeNull()
    await act(async () => { adapter.release() })
    await waitFor(() => expect(within(form).getAllByRole('button').map((button) => button.textContent)).toEqual(['Send']))
  })

  it('canReplayLastTurn: an idle assistant reply right after a user message', () => {
    const message = (id: string, role: Message['role']): Message => ({ id, role, content: id, status: 'complete', createdAt: new Date(0) })
    expect(canReplayLastTurn([message('u', 'user'), message('a', 'assistant')], false)).toBe(true)
    expect(canReplayLastTurn([message('u', 'user'), message('a', 'assistant')], true)).toBe(false)
    expect(canReplayLastTurn([message('u', 'user')], false)).toBe(false)
    expect(canReplayLastTurn([message('s', 'system'), message('a', 'assistant')], false)).toBe(false)
  })
})

/** Gives the log the scroll box of a real layout (happy-dom has none): its content height and viewport. */
function layOut(element: HTMLElement, box: { scrollHeight: number; clientHeight: number }): void {
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => box.scrollHeight })
  Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => box.clientHeight })
}

describe('Jump to latest (issue #31 item 5)', () => {
  const jump = (): HTMLElement | null => screen.queryByRole('button', { name: 'Jump to latest' })

  it('shows only while a reply streams and the reader is scrolled up; a click scrolls to the bottom, focuses the list and hides it', async () => {
    const adapter = heldAdapter()
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    layOut(log(), { scrollHeight: 2000, clientHeight: 400 })
    // Idle and scrolled up: no button (nothing new is arriving).
    log().scrollTop = 100
    fireEvent.scroll(log())
    expect(jump()).toBeNull()
    await type('hello')
    await waitFor(() => expect(articles().at(-1)?.textContent).toContain('first'))
    // Sending scrolled the reader to the bottom: following, no button.
    log().scrollTop = 1600
    fireEvent.scroll(log())
    expect(jump()).toBeNull()
    // Scrolled up into history while the reply streams: the button.
    log().scrollTop = 300
    fireEvent.scroll(log())
    await waitFor(() => expect(jump()).not.toBeNull())
    await act(async () => { fireEvent.click(jump() as HTMLElement) })
    expect(log().scrollTop).toBe(2000)
    expect(document.activeElement).toBe(log())
    expect(jump()).toBeNull()
    // Up again, then the reply finishes: the button leaves with the stream.
    log().scrollTop = 300
    fireEvent.scroll(log())
    await waitFor(() => expect(jump()).not.toBeNull())
    await act(async () => { adapter.release() })
    await waitFor(() => expect(jump()).toBeNull())
  })
})

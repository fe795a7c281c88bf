// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { commandRoute, defineChat } from '../../src/index.js'
import { defineComponents, standardCatalog } from '../../src/components/index.js'
import { orderCard } from './component-page/component-definition.js'
import type { ComponentPart } from '../../src/contract/component-part.js'
import type { Message } from '../../src/contract/message.js'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { preloadComponentUI } from '../../renderers/react/component-ui-loader.js'
import { messageUIKit } from '../../renderers/react/message-ui-kit.js'
import type { ComponentViewProps } from '../../renderers/react/index.js'
import { ComponentPartView } from '../../renderers/react/component-part-view.js'
import type { ComponentHost } from '../../renderers/react/component-host.js'
import { STANDARD_FIXTURES } from '../components/fixtures.js'
import { createChatBinding, createChatView } from '../../src/view/index.js'
import { scriptedAdapter } from '../../src/testing/index.js'

afterEach(cleanup)
// both chunks in before the first chat renders, as a page that prefetched them
beforeAll(async () => { await preloadMessageUI(); await preloadComponentUI(messageUIKit) })

const registry = defineComponents(standardCatalog)
const roleOf = (key: string): string => registry.get(key)?.accessibility.role ?? ''

/**
 * A host over a fixed history: the views read the registry, the messages and the view's answers,
 * and send through the controller's `send` (recorded here, not run). The view (chatrail/view) is
 * the one a chat mounts, over a binding of this history.
 */
function hostOf(messages: Message[] = [], sent: unknown[] = []): ComponentHost {
  const binding = createChatBinding(defineChat({ id: 'views', chat: { adapter: scriptedAdapter([]) }, components: registry, conversation: { initial: 'idle', states: { idle: {} }, routes: [] } }), { lint: false })
  binding.controller.setMessages(messages)
  const controller = { ...binding.controller, send: async (text: string, options?: { metadata?: unknown }) => { sent.push({ text, metadata: options?.metadata }) } }
  const view = createChatView({ ...binding, controller })
  const chat = { session: binding.session, messages, controller, view }
  return { chat: chat as unknown as ComponentHost['chat'], views: undefined }
}

describe('each standard view draws its fixture with its accessible role', () => {
  for (const [key, props] of Object.entries(STANDARD_FIXTURES)) {
    it(key, () => {
      const part = registry.render(key as never, props as never)
      const { container } = render(<ComponentPartView host={hostOf()} messageId="a1" part={part} />)
      expect(container.querySelector('[data-chatrail-component-fallback]')).toBeNull()
      expect(container.querySelector(`[data-chatrail-component="${key}"]`)).not.toBeNull()
      expect(screen.getAllByRole(roleOf(key)).length).toBeGreaterThan(0)
    })
  }

  it('the choice list is a listbox of options; the table has its header cells and rows', () => {
    const choices = registry.render('choice-list', STANDARD_FIXTURES['choice-list'] as never)
    const table = registry.render('table', STANDARD_FIXTURES.table as never)
    render(<><ComponentPartView host={hostOf()} messageId="a1" part={choices} /><ComponentPartView host={hostOf()} messageId="a1" part={table} /></>)
    const listbox = screen.getByRole('listbox', { name: 'What should happen to the lost card?' })
    expect(within(listbox).getAllByRole('option').map((option) => option.textContent)).toEqual(['Rescheduledfree, 3 days'.replace('Rescheduled', 'Reship'), 'Refund'])
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Order', 'Total'])
    expect(screen.getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['12345', '40'])
  })
})

describe('one rule: what is not drawn shows its fallback summary', () => {
  const part = (over: Partial<ComponentPart>): ComponentPart => ({ ...registry.render('link-card', STANDARD_FIXTURES['link-card'] as never), ...over })

  it('an unknown key', () => {
    const { container } = render(<ComponentPartView host={hostOf()} messageId="a1" part={part({ componentKey: 'order-card', props: {}, fallback: { kind: 'order-card', summary: 'Order 1: 40 EUR' } })} />)
    expect(container.querySelector('[data-chatrail-component-fallback]')?.textContent).toBe('Order 1: 40 EUR')
  })

  it('props that fail (an unsafe URL from a tampered store)', () => {
    const { container } = render(<ComponentPartView host={hostOf()} messageId="a1" part={part({ props: { title: 'x', href: 'javascript:alert(1)' } })} />)
    expect(container.querySelector('a')).toBeNull()
    expect(container.querySelector('[data-chatrail-component-fallback]')?.textContent).toContain('Track your parcel')
  })
})

describe('interactions', () => {
  it('a click sends one interaction (a double click too), then the choice is disabled and marked', async () => {
    const sent: { text: string; metadata: unknown }[] = []
    const part = registry.render('choice-list', STANDARD_FIXTURES['choice-list'] as never, { instanceId: 'next' })
    render(<ComponentPartView host={hostOf([], sent)} messageId="a1" part={part} />)
    const reship = screen.getByRole('option', { name: /Reship/ })
    act(() => { fireEvent.click(reship); fireEvent.click(reship) })
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toEqual({ text: 'Reship', metadata: { chatrail: { event: 'reship', interaction: { messageId: 'a1', instanceId: 'next', componentKey: 'choice-list', event: 'select', value: 'reship' } } } })
    expect(screen.getByRole('listbox').getAttribute('aria-disabled')).toBe('true')
    expect(reship.getAttribute('aria-selected')).toBe('true')
    fireEvent.click(screen.getByRole('option', { name: /Refund/ }))
    expect(sent).toHaveLength(1)
  })

  it('the keyboard: ArrowDown then Enter chooses the second option', async () => {
    const sent: { text: string }[] = []
    render(<ComponentPartView host={hostOf([], sent as never[])} messageId="a1" part={registry.render('choice-list', STANDARD_FIXTURES['choice-list'] as never)} />)
    const listbox = screen.getByRole('listbox')
    fireEvent.keyDown(listbox, { key: 'ArrowDown' })
    fireEvent.keyDown(listbox, { key: 'Enter' })
    await waitFor(() => expect(sent.map((item) => item.text)).toEqual(['Refund']))
  })

  it('a component the history already answered (another tab, before a reload) is disabled and shows the choice', () => {
    const sent: unknown[] = []
    const part = registry.render('button-group', STANDARD_FIXTURES['button-group'] as never, { instanceId: 'b' })
    const shown: Message = { id: 'a1', role: 'assistant', status: 'complete', createdAt: new Date(0), content: part.fallback.summary, parts: [part] }
    const answer: Message = {
      id: 'u2', role: 'user', status: 'complete', createdAt: new Date(0), content: 'Ship it',
      metadata: { chatrail: { event: 'ship', interaction: { messageId: 'a1', instanceId: 'b', componentKey: 'button-group', event: 'press', value: 'ship' } } },
    }
    render(<ComponentPartView host={hostOf([shown, answer], sent)} messageId="a1" part={part} />)
    const ship = screen.getByRole('button', { name: /Ship it/ })
    expect(ship.hasAttribute('disabled')).toBe(true)
    expect(ship.getAttribute('aria-pressed')).toBe('true')
    expect(ship.textContent).toContain('chosen')
    fireEvent.click(ship)
    expect(sent).toEqual([])
  })

  it('a form submits its typed fields, and the confirmation its event', async () => {
    const sent: { text: string; metadata: { chatrail: { interaction: unknown } } }[] = []
    const form = registry.render('form', STANDARD_FIXTURES.form as never, { instanceId: 'f' })
    const confirm = registry.render('confirmation', STANDARD_FIXTURES.confirmation as never, { instanceId: 'c' })
    render(<><ComponentPartView host={hostOf([], sent as never[])} messageId="a1" part={form} /><ComponentPartView host={hostOf([], sent as never[])} messageId="a1" part={confirm} /></>)
    fireEvent.change(screen.getByLabelText('Street *'), { target: { value: 'Main St 1' } })
    fireEvent.change(screen.getByLabelText('ZIP'), { target: { value: '1010' } })
    fireEvent.click(screen.getByLabelText('Express'))
    fireEvent.submit(screen.getByRole('form'))
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await waitFor(() => expect(sent).toHaveLength(2))
    expect(sent[0]?.metadata.chatrail.interaction).toEqual({ messageId: 'a1', instanceId: 'f', componentKey: 'form', event: 'submit', value: { street: 'Main St 1', zip: 1010, express: true } })
    expect(sent[0]?.text).toBe('Shipping address — Street: Main St 1, ZIP: 1010, Express: yes')
    expect(sent[1]?.metadata.chatrail.interaction).toEqual({ messageId: 'a1', instanceId: 'c', componentKey: 'confirmation', event: 'confirm' })
  })
})

describe('in a chat', () => {
  const components = defineComponents([...standardCatalog, orderCard])
  const definition = defineChat({
    id: 'component-views',
    chat: {},
    components,
    conversation: {
      initial: 'idle',
      states: { idle: {} },
      routes: [
        commandRoute({
          id: 'lost',
          command: '/lost',
          response: () => [
            'Sorry about your **card**.',
            components.render('order-card', { order: '12345' }),
            components.render('choice-list', { prompt: 'Next?', choices: [{ id: 'reship', label: 'Reship' }, { id: 'refund', label: 'Refund' }] }, { instanceId: 'next' }),
          ],
        }),
      ],
      fallback: { response: 'Noted.' },
    },
  })

  async function sendText(text: string): Promise<void> {
    const input = screen.getByRole('textbox')
    fireEvent.change(input, { target: { value: text } })
    await act(async () => { fireEvent.submit(input.closest('form') as HTMLFormElement) })
  }

  function OrderCardView({ props }: ComponentViewProps): ReactNode {
    return <article aria-label="Order">Order card {(props as { order: string }).order}</article>
  }

  it('text parts as markdown and components in order, an app view for its own key; a choice is sent once', async () => {
    render(<ChatSession definition={definition} componentViews={{ 'order-card': OrderCardView }} />)
    await sendText('/lost')
    await screen.findByRole('listbox', { name: 'Next?' })
    const answer = screen.getAllByRole('article', { name: 'Assistant' })[0]
    const order = [...(answer?.querySelectorAll('strong, [aria-label="Order"], [role="listbox"]') ?? [])].map((el) => el.tagName.toLowerCase())
    expect(order).toEqual(['strong', 'article', 'ul'])
    expect(screen.getByRole('article', { name: 'Order' }).textContent).toBe('Order card 12345')
    const reship = screen.getByRole('option', { name: 'Reship' })
    await act(async () => { fireEvent.click(reship); fireEvent.click(reship) })
    await waitFor(() => expect(screen.getAllByRole('article', { name: 'You' }).map((el) => el.textContent)).toEqual(['/lost', 'Reship']))
    await waitFor(() => expect(screen.getByRole('listbox').getAttribute('aria-disabled')).toBe('true'))
    expect(screen.getByRole('option', { name: /Reship/ }).getAttribute('aria-selected')).toBe('true')
  })

  it('without the app\'s view, its own key shows the fallback summary', async () => {
    render(<ChatSession definition={definition} />)
    await sendText('/lost')
    await screen.findByRole('listbox', { name: 'Next?' })
    expect(document.querySelector('[data-chatrail-component-fallback][data-chatrail-component-key="order-card"]')?.textContent).toBe('Order 12345: 40 EUR')
  })
})

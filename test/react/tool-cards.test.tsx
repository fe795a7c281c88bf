// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { ToolCallCard } from '../../renderers/react/tool-call-card.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { sourceChunk } from '../../src/contract/message-source.js'
import type { StreamChunk } from '../../src/contract/stream.js'
import type { ToolDefinition } from '../../src/contract/tool.js'
import { defineChat } from '../../src/conversation/index.js'
import type { ChatDefinition } from '../../src/conversation/index.js'

// Issue #31 item 10: tool calls as cards (arguments, result, collapsible, "Show more"), an approval
// card for tools that need confirmation, reasoning in a "Thinking" disclosure, cited sources.
beforeAll(() => preloadMessageUI())
afterEach(cleanup)

const LONG_RESULT = Array.from({ length: 40 }, (_, index) => `line ${index + 1}`).join('\n')

/** One scripted reply per request, in order; `hold` keeps the first reply open after its first chunk until released. */
function scripted(replies: StreamChunk[][], hold = false): AdapterFactory & { calls: () => number; release: () => void } {
  let calls = 0
  let release = (): void => {}
  const held = new Promise<void>((resolve) => { release = resolve })
  return {
    calls: () => calls,
    release: () => release(),
    createSource: () => {
      const reply = replies[Math.min(calls, replies.length - 1)] ?? []
      const first = calls === 0
      calls += 1
      return {
        abort: () => release(),
        stream: async function* (): AsyncIterableIterator<StreamChunk> {
          for (const [index, chunk] of reply.entries()) {
            if (hold && first && index === 1) await held
            yield chunk
          }
        },
      }
    },
  }
}

function chatWith(adapter: AdapterFactory, tools: ToolDefinition[]): ChatDefinition {
  return defineChat({ id: 'tools', revision: 1, chat: { adapter, tools }, conversation: { initial: 'open', states: { open: {} }, routes: [] } })
}

const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
async function type(text: string): Promise<void> {
  fireEvent.change(composer(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
}
const card = (name: string): HTMLElement => screen.getByRole('region', { name: `Tool ${name}` })
const toolCall = (id: string, name: string, args: Record<string, unknown>): StreamChunk => ({ type: 'tool_call', toolCall: { id, name, args: JSON.stringify(args) } })

function refundTools(executions: string[]): ToolDefinition[] {
  return [
    { name: 'lookup_order', execute: () => LONG_RESULT },
    { name: 'refund', requiresConfirmation: true, execute: (args) => { executions.push(String(args.orderId)); return 'refunded' } },
  ]
}

describe('tool call cards (issue #31 item 10)', () => {
  it('a complete call is a collapsed card; its disclosure shows the arguments as JSON and the result cut at 20 lines with Show more', async () => {
    const adapter = scripted([[toolCall('t1', 'lookup_order', { orderId: 'A-1' }), { type: 'done' }], [{ type: 'text', content: 'Found it.' }, { type: 'done' }]])
    render(<ChatSession definition={chatWith(adapter, refundTools([]))} options={{ lint: false }} />)
    await type('where is A-1?')
    await waitFor(() => expect(card('lookup_order').getAttribute('data-chatrail-tool-status')).toBe('complete'))
    const toggle = within(card('lookup_order')).getByRole('button', { name: 'lookup_order' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(card('lookup_order').querySelector('[data-chatrail-tool-body]')?.hasAttribute('hidden')).toBe(true)
    expect(card('lookup_order').querySelector('[data-chatrail-tool-state]')?.textContent).toBe('Done')

    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const outputs = card('lookup_order').querySelectorAll('pre[data-chatrail-tool-output]')
    expect(outputs[0]?.textContent).toBe('{\n  "orderId": "A-1"\n}')
    expect(outputs[1]?.textContent).toBe(`${LONG_RESULT.split('\n').slice(0, 20).join('\n')}…`)
    const more = within(card('lookup_order')).getByRole('button', { name: 'Show more' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(more)
    expect(outputs[1]?.textContent).toBe(LONG_RESULT)
    expect(more.textContent).toBe('Show less')
    expect(more.getAttribute('aria-expanded')).toBe('true')
  })

  it('a call needing confirmation shows Approve / Deny; a double click approves once, the tool runs once, and the focus lands on the card', async () => {
    const executions: string[] = []
    const adapter = scripted([[toolCall('t2', 'refund', { orderId: 'A-2' }), { type: 'done' }], [{ type: 'text', content: 'Refunded.' }, { type: 'done' }]])
    render(<ChatSession definition={chatWith(adapter, refundTools(executions))} options={{ lint: false }} />)
    await type('refund A-2')
    const approve = await waitFor(() => within(card('refund')).getByRole('button', { name: 'Approve' }))
    expect(card('refund').getAttribute('data-chatrail-tool-status')).toBe('requires_confirmation')
    expect(card('refund').querySelector('[data-chatrail-tool-state]')?.textContent).toBe('Needs approval')
    expect(card('refund').querySelector('pre')?.textContent).toBe('{\n  "orderId": "A-2"\n}')
    within(card('refund')).getByRole('button', { name: 'Deny' })

    approve.focus()
    await act(async () => { fireEvent.click(approve); fireEvent.click(approve) })
    await waitFor(() => expect(card('refund').getAttribute('data-chatrail-tool-status')).toBe('complete'))
    expect(executions).toEqual(['A-2'])
    expect(within(card('refund')).queryByRole('button', { name: 'Approve' })).toBeNull()
    expect(document.activeElement).toBe(within(card('refund')).getByRole('button', { name: 'refund' }))
    await waitFor(() => expect(screen.getAllByRole('article').at(-1)?.textContent).toContain('Refunded.'))
    expect(adapter.calls()).toBe(2)
  })

  it('a double click on Approve asks once, even before the call leaves requires_confirmation; a failed decision can be made again', async () => {
    const asked: string[] = []
    let fail = true
    const decisions = {
      approve: async (id: string): Promise<void> => {
        asked.push(id)
        if (fail) throw new Error('the server is away')
      },
      deny: async (): Promise<void> => {},
    }
    render(<ToolCallCard call={{ id: 'c1', name: 'refund', args: { orderId: 'A-9' }, status: 'requires_confirmation' }} decisions={decisions} />)
    const approve = screen.getByRole('button', { name: 'Approve' })
    await act(async () => { fireEvent.click(approve); fireEvent.click(approve) })
    expect(asked).toEqual(['c1'])
    expect((await screen.findByRole('alert')).textContent).toBe('the server is away')
    fail = false
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Approve' })) })
    expect(asked).toEqual(['c1', 'c1'])
  })

  it('Deny records the refusal: the card fails, stays open and says why; the tool never runs', async () => {
    const executions: string[] = []
    const adapter = scripted([[toolCall('t3', 'refund', { orderId: 'A-3' }), { type: 'done' }], [{ type: 'text', content: 'Not refunded.' }, { type: 'done' }]])
    render(<ChatSession definition={chatWith(adapter, refundTools(executions))} options={{ lint: false }} />)
    await type('refund A-3')
    const deny = await waitFor(() => within(card('refund')).getByRole('button', { name: 'Deny' }))
    await act(async () => { fireEvent.click(deny) })
    await waitFor(() => expect(card('refund').getAttribute('data-chatrail-tool-status')).toBe('error'))
    expect(executions).toEqual([])
    expect(within(card('refund')).getByRole('button', { name: 'refund' }).getAttribute('aria-expanded')).toBe('true')
    expect(card('refund').textContent).toContain('Permission denied')
    expect(document.activeElement).toBe(within(card('refund')).getByRole('button', { name: 'refund' }))
  })
})

describe('reasoning and sources (issue #31 item 10)', () => {
  it('"Thinking" is open while the reply streams, showing the reasoning as it comes, and closes when the answer completes', async () => {
    const adapter = scripted([[
      { type: 'reasoning', content: 'The user wants a refund; check the policy.' },
      { type: 'text', content: 'Refunds take 5 days.' },
      { type: 'done' },
    ]], true)
    render(<ChatSession definition={chatWith(adapter, [])} options={{ lint: false }} />)
    await type('how long do refunds take?')
    const thinking = await screen.findByRole('button', { name: 'Thinking…' })
    expect(thinking.getAttribute('aria-expanded')).toBe('true')
    const text = document.querySelector('[data-chatrail-reasoning-text]') as HTMLElement
    expect(text.hidden).toBe(false)
    expect(text.textContent).toBe('The user wants a refund; check the policy.')
    // the typing dots would say "Thinking" twice
    expect(document.querySelector('[data-chatrail-typing]')).toBeNull()
    await act(async () => { adapter.release() })
    const done = await screen.findByRole('button', { name: 'Thinking' })
    expect(done.getAttribute('aria-expanded')).toBe('false')
    expect(text.hidden).toBe(true)
    fireEvent.click(done)
    expect(done.getAttribute('aria-expanded')).toBe('true')
    expect(text.hidden).toBe(false)
  })

  it('sources are listed as links under the reply; an unsafe url is shown as text, never as a link', async () => {
    const adapter = scripted([[
      { type: 'text', content: 'Our policy says 5 days.' },
      sourceChunk({ url: 'https://example.com/refunds', title: 'Refund policy' }),
      sourceChunk({ url: 'https://docs.example.com/faq' }),
      sourceChunk({ url: 'javascript:alert(1)', title: 'Bad' }),
      { type: 'done' },
    ]])
    render(<ChatSession definition={chatWith(adapter, [])} options={{ lint: false }} />)
    await type('refund policy?')
    const nav = await screen.findByRole('navigation', { name: 'Sources' })
    const links = within(nav).getAllByRole('link')
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('rel')])).toEqual([
      ['Refund policy', 'https://example.com/refunds', 'noopener noreferrer'],
      ['docs.example.com', 'https://docs.example.com/faq', 'noopener noreferrer'],
    ])
    expect(within(nav).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Refund policy', 'docs.example.com', 'Bad'])
    expect(nav.innerHTML).not.toContain('javascript:')
  })
})

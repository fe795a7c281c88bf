// @vitest-environment happy-dom
import { renderToString } from 'react-dom/server'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ChatSession } from '../../renderers/react/chat-session.js'
import { Composer } from '../../renderers/react/composer.js'
import { useChatSession } from '../../renderers/react/use-chat-session.js'
import { preloadMessageUI } from '../../renderers/react/message-ui-loader.js'
import type { AdapterFactory } from '../../src/contract/adapter.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { countingAdapter, supportChat } from './support-chat.js'

afterEach(cleanup)
// The message UI (markdown, actions, event buttons) is a lazy chunk: load it once so renders are synchronous.
beforeAll(() => preloadMessageUI())

const options = { lint: false }
const composerInput = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })

async function type(text: string): Promise<void> {
  fireEvent.change(composerInput(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composerInput(), { key: 'Enter' }) })
}

describe('<ChatSession> on the server', () => {
  it('renders with renderToString (server snapshot): state, log, composer', () => {
    const html = renderToString(<ChatSession definition={supportChat(countingAdapter())} options={options} />)
    expect(html).toContain('data-chatrail-state="welcome"')
    expect(html).toContain('role="log"')
    expect(html).toContain('<textarea')
  })

  it('useChatSession alone renders on the server too', () => {
    function State() {
      const chat = useChatSession(supportChat(countingAdapter()), options)
      return <p>{chat.snapshot.state}/{chat.status}/{chat.messages.length}</p>
    }
    expect(renderToString(<State />)).toBe('<p>welcome<!-- -->/<!-- -->idle<!-- -->/<!-- -->0</p>')
  })
})

describe('<ChatSession>', () => {
  it('a command advances the state; event buttons send UI events; Regenerate on the reply replays', async () => {
    const adapter = countingAdapter()
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    expect(screen.getByRole('status').getAttribute('data-chatrail-state')).toBe('welcome')
    await type('/start')
    await waitFor(() => expect(screen.getByRole('status').getAttribute('data-chatrail-state')).toBe('triage'))
    expect(screen.getByRole('status').getAttribute('data-chatrail-turn-kind')).toBe('deterministic')
    expect(screen.getByRole('status').textContent).toBe('Triage Ready')
    const log = screen.getByRole('log', { name: 'Messages' })
    expect(within(log).getAllByRole('article').map((a) => [a.getAttribute('data-chatrail-role'), a.querySelector('[data-chatrail-content]')?.textContent]))
      .toEqual([['user', '/start'], ['assistant', 'How can I help? Describe the problem.']])

    // Regenerate sits on the reply it asks again for (issue #31 item 6), not in the composer.
    const reply = within(log).getAllByRole('article').at(-1) as HTMLElement
    await act(async () => { fireEvent.click(within(reply).getByRole('button', { name: 'Regenerate' })) })
    await waitFor(() => expect(screen.getByRole('status').hasAttribute('data-chatrail-replayed')).toBe(true))

    const actions = screen.getByRole('group', { name: 'Actions' })
    expect(within(actions).getAllByRole('button').map((b) => b.textContent)).toEqual(['Escalate', 'Resolve'])
    await act(async () => { fireEvent.click(within(actions).getByRole('button', { name: 'Escalate' })) })
    await waitFor(() => expect(screen.getByRole('status').getAttribute('data-chatrail-state')).toBe('human'))
    expect(log.querySelector('[data-chatrail-event="ESCALATE"]')?.textContent).toContain('Escalate')
    expect(adapter.calls()).toBe(0)
  })

  it('an adapter error shows as a banner with the one Retry and a dismiss', async () => {
    const failing: AdapterFactory & { calls: number } = {
      calls: 0,
      createSource: () => {
        failing.calls += 1
        return { abort: () => {}, stream: async function* () { yield { type: 'error' as const, content: 'model unavailable' } } }
      },
    }
    render(<ChatSession definition={supportChat(failing)} options={options} />)
    await type('anything unmatched')
    const banner = await screen.findByRole('alert')
    expect(banner.querySelector('[data-chatrail-error-message]')?.textContent).toBe('The reply failed. model unavailable (AK_ADAPTER_STREAM_FAILED)')
    expect(banner.querySelector('[data-chatrail-error-hint]')?.textContent).not.toBe('')
    expect(screen.getByRole('status').textContent).toContain('Something went wrong')
    // One way to ask again after a failure: the banner's Retry; the failed reply offers no Regenerate, the composer no Retry.
    expect(screen.getAllByRole('button', { name: /^(Retry|Regenerate|Try again)$/ })).toEqual([within(banner).getByRole('button', { name: 'Retry' })])
    await act(async () => { fireEvent.click(within(banner).getByRole('button', { name: 'Retry' })) })
    // Retry re-asks the agent, which fails again: a new error, a banner again.
    await waitFor(() => expect(failing.calls).toBe(2))
    await act(async () => { fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Dismiss' })) })
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('Edit resends an edited user message', async () => {
    const adapter = countingAdapter('agent says hi')
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    await type('hello')
    await waitFor(() => expect(adapter.calls()).toBe(1))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit message' })).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }))
    fireEvent.change(screen.getByRole('textbox', { name: 'Edit message' }), { target: { value: '/start' } })
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Save and resend' })) })
    await waitFor(() => expect(screen.getByRole('status').getAttribute('data-chatrail-state')).toBe('triage'))
    const contents = screen.getAllByRole('article').map((a) => a.querySelector('[data-chatrail-content]')?.textContent)
    expect(contents).toEqual(['/start', 'How can I help? Describe the problem.'])
    expect(adapter.calls()).toBe(1)
  })

  it('a pending question renders inline once, collapses the composer, and becomes a Q→A summary when answered', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    render(<ChatSession definition={supportChat(agent)} options={options} />)
    await type('/start')
    await waitFor(() => expect(screen.getByRole('status').getAttribute('data-chatrail-state')).toBe('triage'))
    await type('please ask me first')
    const card = await screen.findByRole('region', { name: 'The agent asks' })
    const stream = [...screen.getByRole('log').children]
    expect(stream.map((el) => el.getAttribute('data-chatrail-role') ?? el.getAttribute('data-chatrail-dialog-state')))
      .toEqual(['user', 'assistant', 'user', 'assistant', 'pending'])
    expect(stream[3]?.querySelector('[data-chatrail-tool-card]')).toBeNull()
    expect(document.querySelectorAll('[data-chatrail-dialog]')).toHaveLength(1)
    // Collapsed composer: a note pointing at the card plus Stop, no textarea.
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Waiting for your answer above ↑' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy()
    expect(within(screen.getByRole('group', { name: 'Actions' })).getAllByRole('button').every((b) => (b as HTMLButtonElement).disabled)).toBe(true)

    fireEvent.click(within(card).getByRole('radio', { name: /Pro/ }))
    await act(async () => { fireEvent.click(within(card).getByRole('button', { name: 'Answer' })) })
    await waitFor(() => expect(document.querySelector('[data-chatrail-dialog-state="answered"]')).not.toBeNull())
    expect(document.querySelector('[data-chatrail-dialog-state="answered"]')?.textContent).toBe('Which plan are you on? → Pro')
    expect(document.querySelectorAll('[data-chatrail-dialog]')).toHaveLength(1)
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy())
    expect(agent.calls()).toBe(1)
  })

  it('a pending plan renders in full; approving leaves "Plan → Approved"', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    render(<ChatSession definition={supportChat(agent)} options={options} />)
    await type('make a plan please')
    const card = await screen.findByRole('region', { name: 'The agent proposes a plan' })
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Open a claim with the carrier for the lost parcel, quoting the hub-scan event.',
      'Check the warehouse stock for every item of the order.',
      'Create the replacement shipment with express delivery.',
      'Email the customer the new tracking number.',
      'Refund the shipping fee once the claim is accepted.',
    ])
    expect(within(card).getByText('Nothing is charged twice; the claim covers the replacement.').closest('blockquote')).not.toBeNull()
    expect(screen.getByRole('button', { name: 'Waiting for your review above ↑' })).toBeTruthy()
    await act(async () => { fireEvent.click(within(card).getByRole('button', { name: 'Approve plan' })) })
    await waitFor(() => expect(document.querySelector('[data-chatrail-dialog-state="answered"] [data-chatrail-qa-a]')?.textContent).toBe('Approved'))
    await waitFor(() => expect(screen.getAllByRole('article').at(-1)?.textContent).toContain('the plan is approved'))
  })

  it('Stop while a dialog is pending ends the turn and marks the dialog dismissed', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 0 })
    render(<ChatSession definition={supportChat(agent)} options={options} />)
    await type('please ask me first')
    await screen.findByRole('region', { name: 'The agent asks' })
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Stop' })) })
    await waitFor(() => expect(document.querySelector('[data-chatrail-dialog-state="dismissed"]')).not.toBeNull())
    expect(document.querySelector('[data-chatrail-dismissed]')?.textContent).toBe('dismissed')
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy()
  })

  it('a part outside <ChatSession> without a chat prop says how to fix it', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<Composer />)).toThrow(/<Composer> has no chat/)
    spy.mockRestore()
  })
})

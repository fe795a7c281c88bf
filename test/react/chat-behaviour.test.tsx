// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadDialogUI, preloadMessageUI } from '../../renderers/react/index.js'
import { createScriptedAgent } from '../../examples/react-support/src/scripted-agent.js'
import { createSupportBot } from '../../examples/support-bot/definition.js'
import { countingAdapter, supportChat } from './support-chat.js'

// What a person sees and does, with the real session and controller (the React part of issue 21);
// layout, focus rings, contrast and the live region's mutations are checked in Chromium (browser.test.ts).
beforeAll(() => Promise.all([preloadMessageUI(), preloadDialogUI()]))
afterEach(cleanup)

const options = { lint: false }
const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
const badge = (): HTMLElement => screen.getByRole('status')
const articles = (): Array<[string | null, string]> =>
  screen.getAllByRole('article').map((a) => [a.getAttribute('data-chatrail-role'), a.querySelector('[data-chatrail-content]')?.textContent ?? ''])

async function type(text: string): Promise<void> {
  fireEvent.change(composer(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
}

describe('first screen', () => {
  it('greets with chips for the commands and events allowed now; a chip sends, and the welcome gives way', async () => {
    const adapter = countingAdapter()
    render(<ChatSession definition={supportChat(adapter)} options={options} greeting="Hi there" eventLabels={{ ESCALATE: 'Talk to a person' }} />)
    expect(screen.getByText('Hi there')).toBeTruthy()
    const chips = within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button')
    // welcome allows START only: its command; ESCALATE / RESOLVE are not allowed there.
    expect(chips.map((chip) => chip.querySelector('[data-chatrail-suggestion-label]')?.textContent)).toEqual(['/start'])
    // No event row on the first screen: the chips are the way in.
    expect(screen.queryByRole('group', { name: 'Actions' })).toBeNull()
    await act(async () => { fireEvent.click(chips[0] as HTMLElement) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('triage'))
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull()
    expect(articles()[0]).toEqual(['user', '/start'])
    expect(adapter.calls()).toBe(0)
    // The chip left with the first screen: the focus is where the next message is typed, not BODY (issue #31 item 7).
    expect(document.activeElement).toBe(composer())
  })

  it('an event chip fires its UI event with its label', async () => {
    const bot = createSupportBot(countingAdapter())
    render(<ChatSession definition={bot} options={options} eventLabels={{ escalate: 'Talk to a person' }} />)
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: /^Talk to a person/ })) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('escalated'))
    expect(document.querySelector('[data-chatrail-event="escalate"]')?.textContent).toContain('Talk to a person')
  })
})

describe('streaming and stopping', () => {
  it('a stopped reply keeps its text with a Stopped mark, and the badge stops saying Working…', async () => {
    render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 5 }))} options={options} />)
    await type('tell me the long story')
    await waitFor(() => expect(badge().textContent).toContain('Working…'))
    await waitFor(() => expect(articles().at(-1)?.[1]).toContain('Step 1'))
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Stop' })) })
    const reply = screen.getAllByRole('article').at(-1) as HTMLElement
    expect(reply.getAttribute('data-chatrail-stopped')).toBe('')
    expect(within(reply).getByText('Stopped')).toBeTruthy()
    expect(reply.textContent).toContain('Step 1')
    expect(badge().textContent).toContain('Ready')
    expect(badge().getAttribute('data-chatrail-agent-state')).toBe('idle')
  })

  it('Esc in the composer stops a reply; stopping before the first word leaves no empty bubble', async () => {
    render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 5 }))} options={options} />)
    await type('think about it')
    await waitFor(() => expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('streaming'))
    await act(async () => { fireEvent.keyDown(composer(), { key: 'Escape' }) })
    expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('idle')
    expect(articles()).toEqual([['user', 'think about it']])
  })
})

describe('errors', () => {
  it('a failed agent: a banner with Retry and dismiss; the fallback answer is its own bubble after the partial one', async () => {
    const agent = createScriptedAgent({ chunkDelayMs: 1 })
    render(<ChatSession definition={createSupportBot(agent)} options={options} />)
    await type('please fail now')
    const banner = await screen.findByRole('alert')
    // What happened, its cause, and what to do, in plain words; the badge does not say Ready (issue #31 item 11).
    expect(banner.querySelector('[data-chatrail-error-message] strong')?.textContent).toBe('The agent could not answer, so the answer above is the fallback.')
    expect(banner.querySelector('[data-chatrail-error-cause]')?.textContent).toMatch(/^The agent failed with \w+\.$/)
    expect(banner.querySelector('[data-chatrail-error-hint]')?.textContent).toBe('Retry to ask the agent once more.')
    expect(badge().querySelector('[data-chatrail-status-words]')?.textContent).toBe('Something went wrong')
    expect(within(banner).getByRole('button', { name: 'Retry' })).toBeTruthy()
    // The banner's Retry is the only one: the fallback answer offers no Regenerate (issue #31 item 6).
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull()
    const replies = screen.getAllByRole('article').filter((a) => a.getAttribute('data-chatrail-role') === 'assistant')
    expect(replies.map((a) => [a.hasAttribute('data-chatrail-fallback'), a.querySelector('[data-chatrail-content]')?.textContent])).toEqual([
      [false, 'Let me check the carrier…'],
      [true, 'Sorry, I can\'t answer that right now. Type /start to look up an order, or /human to reach a person.'],
    ])
    await act(async () => { fireEvent.click(within(banner).getByRole('button', { name: 'Retry' })) })
    // The banner leaves while the turn runs: the focus goes to the composer, not to <body>.
    expect(document.activeElement).toBe(composer())
    const again = await screen.findByRole('alert')
    expect(agent.calls()).toBe(2)
    await act(async () => { fireEvent.click(within(again).getByRole('button', { name: 'Dismiss' })) })
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

describe('focus', () => {
  it('a new dialog card takes the focus; after answering, the focus is back in the composer', async () => {
    render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 0 }))} options={options} />)
    await type('please ask me first')
    const card = await screen.findByRole('region', { name: 'The agent asks' })
    await waitFor(() => expect(document.activeElement).toBe(card))
    fireEvent.click(within(card).getByRole('radio', { name: /Pro/ }))
    await act(async () => { fireEvent.click(within(card).getByRole('button', { name: 'Answer' })) })
    await waitFor(() => expect(document.activeElement).toBe(composer()))
  })

  it('Edit focuses its box; Esc cancels (focus back on Edit); Enter saves and resends', async () => {
    const adapter = countingAdapter('agent says hi')
    render(<ChatSession definition={supportChat(adapter)} options={options} />)
    await type('hello')
    await waitFor(() => expect(adapter.calls()).toBe(1))
    const edit = await screen.findByRole('button', { name: 'Edit message' })
    fireEvent.click(edit)
    const box = screen.getByRole('textbox', { name: 'Edit message' })
    expect(document.activeElement).toBe(box)
    await act(async () => { fireEvent.keyDown(box, { key: 'Escape' }) })
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit message' })))
    expect(screen.queryByRole('textbox', { name: 'Edit message' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Edit message' }))
    fireEvent.change(screen.getByRole('textbox', { name: 'Edit message' }), { target: { value: '/start' } })
    await act(async () => { fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit message' }), { key: 'Enter' }) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('triage'))
    expect(articles()).toEqual([['user', '/start'], ['assistant', 'How can I help? Describe the problem.']])
    expect(document.activeElement).toBe(composer())
  })
})

describe('dialogs in order', () => {
  it('the Q→A summary reads above the reply text that followed the answer', async () => {
    render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 0 }))} options={options} />)
    await type('please ask me first')
    const card = await screen.findByRole('region', { name: 'The agent asks' })
    fireEvent.click(within(card).getByRole('radio', { name: /Team/ }))
    await act(async () => { fireEvent.click(within(card).getByRole('button', { name: 'Answer' })) })
    await waitFor(() => expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('idle'))
    const stream = [...screen.getByRole('log').children].map((el) => el.getAttribute('data-chatrail-dialog-state') ?? el.querySelector('[data-chatrail-content]')?.textContent)
    expect(stream).toEqual(['please ask me first', 'One question before I continue.', 'answered', 'Thanks — Team.'])
  })
})

describe('status in plain words', () => {
  it('the badge says Waiting for your answer while a card waits, and never shows a raw state or turn kind', async () => {
    render(<ChatSession definition={supportChat(createScriptedAgent({ chunkDelayMs: 0 }))} options={options} stateLabels={{ welcome: 'Start' }} />)
    expect(badge().textContent).toBe('Start Ready')
    await type('please ask me first')
    await screen.findByRole('region', { name: 'The agent asks' })
    expect(badge().textContent).toBe('Start Waiting for your answer')
    expect(badge().getAttribute('data-chatrail-agent-state')).toBe('question')
  })
})

describe('the live region', () => {
  it('the log is not live; a finished reply is read once, whole', async () => {
    render(<ChatSession definition={supportChat(countingAdapter('one two three four', 2))} options={options} />)
    expect(screen.getByRole('log').getAttribute('aria-live')).toBe('off')
    const region = document.querySelector('[data-chatrail-announcer]') as HTMLElement
    expect(region.getAttribute('aria-live')).toBe('polite')
    const changes: string[] = []
    new MutationObserver(() => changes.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true })
    await type('anything unmatched')
    await waitFor(() => expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('idle'))
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 20)) })
    expect(changes).toEqual(['one two three four'])
  })
})

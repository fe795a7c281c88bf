// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ChatSession, preloadMessageUI } from '../../renderers/react/index.js'
import { restartEventOf } from '../../src/view/event-routes.js'
import { createSupportBot, SUPPORT_EVENTS, supportBot } from '../../examples/support-bot/definition.js'
import { createChatSession } from '../../src/index.js'
import { countingAdapter, supportChat } from './support-chat.js'

// Start over (issue 21 "First screen and end", on issue 19's restart): the end of a conversation
// offers the restart the snapshot names, and the chat carries on from `initial`. Layout, dark mode
// and axe run in Chromium (browser.test.ts).
beforeAll(() => preloadMessageUI())
afterEach(cleanup)

const options = { lint: false }
const composer = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' })
const badge = (): HTMLElement => screen.getByRole('status')

async function type(text: string): Promise<void> {
  fireEvent.change(composer(), { target: { value: text } })
  await act(async () => { fireEvent.keyDown(composer(), { key: 'Enter' }) })
}

async function reachResolved(): Promise<void> {
  await type('/start')
  await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('collecting'))
  await type('#12345')
  await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('confirming'))
  await type('yes')
  await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('resolved'))
  await waitFor(() => expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('idle'))
}

describe('Start over after a final state', () => {
  it('the end of the conversation offers Start over; it sends the restart UI event, shows the first chips again and focuses the composer', async () => {
    const adapter = countingAdapter()
    render(<ChatSession definition={createSupportBot(adapter)} options={options} />)
    await reachResolved()
    const end = await screen.findByRole('group', { name: 'Conversation ended' })
    expect(within(end).getByText('This conversation has ended.')).toBeTruthy()
    const startOver = within(end).getByRole('button', { name: 'Start over' })
    expect(startOver.getAttribute('data-chatrail-event-button')).toBe(SUPPORT_EVENTS.startOver)
    // The restart is the end area's own button, not also an ordinary event button.
    expect(document.querySelectorAll(`[data-chatrail-event-button="${SUPPORT_EVENTS.startOver}"]`)).toHaveLength(1)
    expect(screen.queryByRole('group', { name: 'Actions' })).toBeNull()

    startOver.focus()
    await act(async () => { fireEvent.click(startOver) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('greeting'))
    await waitFor(() => expect(document.querySelector('[data-chatrail-chat]')?.getAttribute('data-chatrail-status')).toBe('idle'))
    // The button left with the final state; the focus is where the next message is typed.
    expect(document.activeElement).toBe(composer())
    expect(screen.queryByRole('group', { name: 'Conversation ended' })).toBeNull()
    // The user's turn is the UI event with its label; the reply is the restart route's, not the agent's.
    expect(document.querySelector(`[data-chatrail-event="${SUPPORT_EVENTS.startOver}"]`)?.textContent).toContain('Start over')
    expect(adapter.calls()).toBe(0)
    // The first screen's chips for `initial` are back, and they work.
    const chips = within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button')
    expect(chips.map((chip) => chip.querySelector('[data-chatrail-suggestion-label]')?.textContent)).toEqual(['/help', '/start', 'Escalate'])
    await act(async () => { fireEvent.click(chips[1] as HTMLElement) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('collecting'))
    // Past the restart's turn the chips give way to the state's buttons.
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull())
  })

  it('labels the button from eventLabels, and the typed /start restarts the same way', async () => {
    render(<ChatSession definition={createSupportBot(countingAdapter())} options={options} eventLabels={{ [SUPPORT_EVENTS.startOver]: 'New conversation' }} />)
    await reachResolved()
    expect(await screen.findByRole('button', { name: 'New conversation' })).toBeTruthy()
    await type('/start')
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('greeting'))
    expect(await screen.findByRole('list', { name: 'Suggestions' })).toBeTruthy()
  })

  it('a final state without a restart route says the conversation ended, with no Start over button', async () => {
    render(<ChatSession definition={supportChat(countingAdapter())} options={options} />)
    await type('/start')
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('triage'))
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Resolve' })) })
    await waitFor(() => expect(badge().getAttribute('data-chatrail-state')).toBe('done'))
    const end = await screen.findByRole('group', { name: 'Conversation ended' })
    expect(within(end).queryByRole('button')).toBeNull()
    expect(end.textContent).toBe('This conversation has ended.')
  })
})

describe('restartEventOf (for snapshots that do not carry `restart`, e.g. the remote mirror)', () => {
  it('agrees with the session snapshot in every state of the support bot', () => {
    for (const state of Object.keys(supportBot.conversation.states)) {
      const snapshot = createChatSession(supportBot, { lint: false, start: { state } }).getSnapshot()
      expect(restartEventOf(supportBot.conversation.routes, state), state).toBe(snapshot.restart)
    }
    expect(restartEventOf(supportBot.conversation.routes, 'resolved')).toBe(SUPPORT_EVENTS.startOver)
  })
})

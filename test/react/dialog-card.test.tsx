// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import type { ReactElement } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { DialogCard } from '../../renderers/react/dialog-card.js'
import { preloadMessageUI } from '../../renderers/react/message-ui-loader.js'
import type { DialogAnswerInput } from '../../src/contract/dialog.js'
import { planDialog, questionDialog } from './dialogs.js'

afterEach(cleanup)
// Plans render through the message UI chunk's markdown renderer: in, so plans render with their card.
beforeAll(() => preloadMessageUI())

/**
 * Renders a card and waits for its lazily loaded UI: the first card of this file really waits for
 * the chunk (transformed on first import under vitest, hence the generous timeout). An awaited
 * `act`: React retries a suspended render only when the act scope it suspended in is awaited.
 */
async function renderCard(card: ReactElement): Promise<ReturnType<typeof render>> {
  const result = await act(async () => render(card))
  await waitFor(() => expect(result.container.querySelector('[data-chatrail-dialog]:not([data-chatrail-dialog-state="loading"])')).not.toBeNull(), { timeout: 10_000 })
  return result
}

function answerSpy() {
  const calls: Array<[string, DialogAnswerInput]> = []
  const onAnswer = vi.fn(async (toolId: string, answer: DialogAnswerInput) => { calls.push([toolId, answer]) })
  return { calls, onAnswer }
}

describe('<DialogCard> pending question', () => {
  it('answers a single-select question with the chosen label', async () => {
    const { calls, onAnswer } = answerSpy()
    await renderCard(<DialogCard dialog={questionDialog('t1')} onAnswer={onAnswer} />)
    const card = screen.getByRole('region', { name: 'The agent asks' })
    expect(card.getAttribute('data-chatrail-dialog-state')).toBe('pending')
    const submit = screen.getByRole('button', { name: 'Answer' })
    // Not answerable yet, but in the Tab order (aria-disabled, not disabled); a click does nothing.
    expect(submit.getAttribute('aria-disabled')).toBe('true')
    expect((submit as HTMLButtonElement).disabled).toBe(false)
    fireEvent.click(submit)
    expect(calls).toHaveLength(0)
    // No Other field until Other is chosen.
    expect(screen.queryByRole('textbox')).toBeNull()
    fireEvent.click(screen.getByRole('radio', { name: /Pro/ }))
    fireEvent.click(submit)
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toEqual(['t1', { kind: 'question', answers: [{ question: 'Which plan are you on?', chosen: ['Pro'] }] }])
  })

  it('renders the dialog’s Other row once, and typing in it answers with free text', async () => {
    const { calls, onAnswer } = answerSpy()
    await renderCard(<DialogCard dialog={questionDialog('t1')} onAnswer={onAnswer} />)
    expect(screen.getAllByRole('radio')).toHaveLength(3)
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }))
    const field = screen.getByRole('textbox', { name: /Other: your own answer/ })
    await vi.waitFor(() => expect(document.activeElement).toBe(field))
    fireEvent.change(field, { target: { value: 'Enterprise' } })
    expect((screen.getByRole('radio', { name: 'Other' }) as HTMLInputElement).checked).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }))
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.[1]).toEqual({ kind: 'question', answers: [{ question: 'Which plan are you on?', chosen: [], otherText: 'Enterprise' }] })
  })

  it('multi-select keeps toggle order and adds an Other row when the dialog has none', async () => {
    const { calls, onAnswer } = answerSpy()
    const dialog = questionDialog('t2', {
      multiSelect: true,
      options: [{ label: 'Apple' }, { label: 'Banana' }, { label: 'Cherry' }],
    })
    await renderCard(<DialogCard dialog={dialog} onAnswer={onAnswer} />)
    expect(screen.getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual(['Apple', 'Banana', 'Cherry', 'Other'])
    fireEvent.click(screen.getByRole('checkbox', { name: 'Cherry' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Apple' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Banana' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Banana' }))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Other' }))
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Kiwi' } })
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }))
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.[1]).toEqual({ kind: 'question', answers: [{ question: 'Which plan are you on?', chosen: ['Cherry', 'Apple'], otherText: 'Kiwi' }] })
  })

  it('asks every question of a multi-question dialog and needs all before submitting', async () => {
    const { calls, onAnswer } = answerSpy()
    const dialog = questionDialog('t3', {
      prompt: '2 questions',
      options: [],
      questions: [
        { header: 'Plan', question: 'Which plan?', options: [{ label: 'Free' }, { label: 'Pro' }], multiSelect: false },
        { header: 'Area', question: 'Which areas?', options: [{ label: 'Billing' }, { label: 'Login' }], multiSelect: true },
      ],
    })
    await renderCard(<DialogCard dialog={dialog} onAnswer={onAnswer} />)
    expect(screen.getAllByRole('group').map((group) => group.querySelector('[data-chatrail-question-text]')?.textContent)).toEqual(['Which plan?', 'Which areas?'])
    const submit = screen.getByRole('button', { name: 'Submit answers' }) as HTMLButtonElement
    fireEvent.click(screen.getByRole('radio', { name: 'Free' }))
    expect(submit.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(screen.getByRole('checkbox', { name: 'Login' }))
    expect(submit.getAttribute('aria-disabled')).toBe('false')
    fireEvent.click(submit)
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]?.[1]).toEqual({ kind: 'question', answers: [
      { question: 'Which plan?', chosen: ['Free'] },
      { question: 'Which areas?', chosen: ['Login'] },
    ] })
  })

  it('shows a failed answer as an alert in the card and lets the user try again', async () => {
    const onAnswer = vi.fn().mockRejectedValueOnce(new Error('Dialog t1 is no longer pending')).mockResolvedValueOnce(undefined)
    await renderCard(<DialogCard dialog={questionDialog('t1')} onAnswer={onAnswer} />)
    fireEvent.click(screen.getByRole('radio', { name: /Free/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }))
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Dialog t1 is no longer pending')
    fireEvent.click(screen.getByRole('button', { name: 'Answer' }))
    await vi.waitFor(() => expect(screen.queryByRole('alert')).toBeNull())
    expect(onAnswer).toHaveBeenCalledTimes(2)
  })

  it('a dialog only the agent’s UI can answer has no controls and says where to answer', async () => {
    await renderCard(<DialogCard dialog={questionDialog('t1', { answerable: false })} onAnswer={vi.fn()} />)
    expect(screen.queryAllByRole('radio')).toHaveLength(0)
    expect(screen.getByText(/Answer this in the agent’s own window/)).toBeTruthy()
  })
})

describe('<DialogCard> pending plan', () => {
  const plan = ['# Plan', '', ...Array.from({ length: 60 }, (_, i) => `${i + 1}. Step number ${i + 1}`), '', 'Final line of the plan.'].join('\n')

  it('renders the whole plan, never truncated', async () => {
    await renderCard(<DialogCard dialog={planDialog('p1', plan)} onAnswer={vi.fn()} />)
    const items = screen.getAllByRole('listitem')
    expect(items).toHaveLength(60)
    expect(items.at(-1)?.textContent).toBe('Step number 60')
    expect(screen.getByText('Final line of the plan.')).toBeTruthy()
  })

  it('renders quotes, code and inline marks as elements, never as HTML', async () => {
    const { container } = await renderCard(<DialogCard dialog={planDialog('p2', '> keep **old** data\n\n```\n<b>raw</b>\n```')} onAnswer={vi.fn()} />)
    expect(container.querySelector('blockquote')?.innerHTML).toBe('<p>keep <strong>old</strong> data</p>')
    expect(container.querySelector('pre code')?.textContent).toBe('<b>raw</b>')
    expect(container.querySelector('pre b')).toBeNull()
  })

  it('approves, or rejects with the typed feedback', async () => {
    const { calls, onAnswer } = answerSpy()
    await renderCard(<DialogCard dialog={planDialog('p1', plan)} onAnswer={onAnswer} />)
    fireEvent.click(screen.getByRole('button', { name: 'Approve plan' }))
    await vi.waitFor(() => expect(calls).toHaveLength(1))
    fireEvent.change(screen.getByRole('textbox', { name: /Feedback/ }), { target: { value: 'Do step 3 first' } })
    fireEvent.click(await screen.findByRole('button', { name: 'Reject with feedback' }))
    await vi.waitFor(() => expect(calls).toHaveLength(2))
    expect(calls.map(([, answer]) => answer)).toEqual([
      { kind: 'plan', approved: true },
      { kind: 'plan', approved: false, feedback: 'Do step 3 first' },
    ])
  })
})

describe('<DialogCard> answered', () => {
  it('is a compact, inert Q→A summary', async () => {
    const dialog = { ...questionDialog('t1'), outcome: { dismissed: false, approved: false, results: [{ question: 'Which plan are you on?', chosen: ['Pro'], otherText: 'and a trial' }] } }
    const { container } = await renderCard(<DialogCard dialog={dialog} onAnswer={vi.fn()} />)
    const card = container.querySelector('[data-chatrail-dialog]')
    expect(card?.getAttribute('data-chatrail-dialog-state')).toBe('answered')
    expect(card?.textContent).toBe('Which plan are you on? → Pro, and a trial')
    expect(container.querySelectorAll('input, button, textarea')).toHaveLength(0)
  })

  it('marks a dialog resolved without an answer as dismissed', async () => {
    const dialog = { ...questionDialog('t1'), outcome: { dismissed: true, approved: false } }
    const { container } = await renderCard(<DialogCard dialog={dialog} onAnswer={vi.fn()} />)
    expect(container.querySelector('[data-chatrail-dialog]')?.getAttribute('data-chatrail-dialog-state')).toBe('dismissed')
    expect(container.querySelector('[data-chatrail-dismissed]')?.textContent).toBe('dismissed')
  })

  it('an answered plan says approved or rejected, with the feedback, and keeps the full plan', async () => {
    const dialog = { ...planDialog('p1', '# Plan\n\n1. one\n2. two'), outcome: { dismissed: false, approved: false, feedback: 'smaller' } }
    const { container } = await renderCard(<DialogCard dialog={dialog} onAnswer={vi.fn()} />)
    expect(container.querySelector('[data-chatrail-qa-a]')?.textContent).toBe('Rejected')
    expect(container.querySelector('[data-chatrail-feedback]')?.textContent).toBe('smaller')
    expect(container.querySelectorAll('details [data-chatrail-plan] li')).toHaveLength(2)
  })
})

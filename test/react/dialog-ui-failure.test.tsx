// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { DialogCard, PlanMarkdown } from '../../renderers/react/index.js'
import { questionDialog } from './dialogs.js'

// The first load of the dialog UI chunk fails (a flaky network, a stale deploy), later ones work.
const chunk = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../renderers/react/dialog-ui.js', async (importOriginal) => {
  chunk.loads += 1
  if (chunk.loads === 1) throw new Error('Failed to fetch dynamically imported module')
  return importOriginal()
})

afterEach(cleanup)

it('a chunk that fails to load is an alert in the card’s place with Try again; a plan (its own chunk) stays readable', async () => {
  const onAnswer = vi.fn(async () => {})
  await act(async () => {
    render(<><DialogCard dialog={questionDialog('toolu_1')} onAnswer={onAnswer} /><PlanMarkdown source={'1. step one'} /></>)
  })
  const alert = await screen.findByRole('alert')
  // vitest wraps the factory's error in its own message; the card shows whatever the import rejected with.
  expect(alert.textContent).toMatch(/^The question could not be shown: \S/)
  expect(alert.closest('[data-chatrail-dialog]')?.getAttribute('data-chatrail-dialog-state')).toBe('loading')
  expect(document.querySelector('[data-chatrail-plan]')?.textContent).toBe('1. step one')
  expect(chunk.loads).toBe(1)

  await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Try again' })) })
  const card = await screen.findByRole('region', { name: 'The agent asks' })
  expect(card.getAttribute('data-chatrail-dialog-state')).toBe('pending')
  expect(screen.queryByRole('alert')).toBeNull()
  expect(chunk.loads).toBe(2)
})

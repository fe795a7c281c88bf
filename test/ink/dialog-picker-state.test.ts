import { describe, expect, it } from 'vitest'
import type { Dialog } from '../../src/contract/dialog.js'
import { initialPickerState, pickerRows, stepPicker } from '../../renderers/ink/dialog-picker-state.js'
import type { PickerInput, PickerOutcome, PickerState } from '../../renderers/ink/dialog-picker-state.js'

const single: Dialog = {
  toolId: 'toolu_1',
  kind: 'question',
  prompt: 'Which database?',
  options: [{ label: 'Postgres' }, { label: 'SQLite', description: 'a file' }],
  multiSelect: false,
  answerable: true,
}

/** Runs inputs until the picker submits or dismisses; returns the last outcome. */
function run(dialog: Dialog, inputs: PickerInput[]): PickerOutcome {
  let state: PickerState = initialPickerState
  let outcome: PickerOutcome = { type: 'pending', state }
  for (const input of inputs) {
    outcome = stepPicker(dialog, state, input)
    if (outcome.type !== 'pending') return outcome
    state = outcome.state
  }
  return outcome
}

describe('stepPicker', () => {
  it('appends an Other row unless the dialog declares one', () => {
    expect(pickerRows(single, initialPickerState).map((row) => row.label)).toEqual(['Postgres', 'SQLite', 'Other…'])
    const declared: Dialog = { ...single, options: [{ label: 'A' }, { label: 'Something else', isOther: true }] }
    expect(pickerRows(declared, initialPickerState).map((row) => row.isOther)).toEqual([false, true])
  })

  it('answers a single-select question with the row under the cursor, wrapping at the ends', () => {
    expect(run(single, [{ type: 'down' }, { type: 'choose' }])).toEqual({
      type: 'submit',
      answer: { kind: 'question', answers: [{ question: 'Which database?', chosen: ['SQLite'] }] },
    })
    expect(run(single, [{ type: 'up' }, { type: 'up' }, { type: 'choose' }])).toMatchObject({
      answer: { answers: [{ chosen: ['SQLite'] }] },
    })
  })

  it('takes free text through the Other row, and Esc leaves the editor before the picker', () => {
    const outcome = run(single, [
      { type: 'pick', index: 2 },
      { type: 'text', text: 'DuckDB!' },
      { type: 'backspace' },
      { type: 'choose' },
    ])
    expect(outcome).toEqual({
      type: 'submit',
      answer: { kind: 'question', answers: [{ question: 'Which database?', chosen: [], otherText: 'DuckDB' }] },
    })
    expect(run(single, [{ type: 'pick', index: 2 }, { type: 'escape' }])).toMatchObject({
      type: 'pending',
      state: { typingOther: false },
    })
    expect(run(single, [{ type: 'escape' }])).toEqual({ type: 'dismiss' })
  })

  it('refuses an empty Other answer', () => {
    expect(run(single, [{ type: 'pick', index: 2 }, { type: 'choose' }])).toMatchObject({ type: 'pending' })
  })

  it('toggles multi-select rows in toggle order and walks every question before submitting', () => {
    const multi: Dialog = {
      toolId: 'toolu_2',
      kind: 'question',
      prompt: 'Features?',
      options: [],
      multiSelect: false,
      answerable: true,
      questions: [
        { question: 'Features?', multiSelect: true, options: [{ label: 'Auth' }, { label: 'Search' }, { label: 'Billing' }] },
        { question: 'Deploy?', multiSelect: false, options: [{ label: 'Now' }, { label: 'Later' }] },
      ],
    }
    const outcome = run(multi, [
      { type: 'pick', index: 2 },
      { type: 'pick', index: 0 },
      { type: 'down' },
      { type: 'toggle' },
      { type: 'toggle' },
      { type: 'choose' },
      { type: 'pick', index: 1 },
    ])
    expect(outcome).toEqual({
      type: 'submit',
      answer: {
        kind: 'question',
        answers: [
          { question: 'Features?', chosen: ['Billing', 'Auth'] },
          { question: 'Deploy?', chosen: ['Later'] },
        ],
      },
    })
  })

  it('approves, rejects, and rejects a plan with feedback', () => {
    const plan: Dialog = { toolId: 'toolu_3', kind: 'plan', prompt: '# Plan\n1. do it', options: [], multiSelect: false, answerable: true }
    expect(run(plan, [{ type: 'choose' }])).toEqual({ type: 'submit', answer: { kind: 'plan', approved: true } })
    expect(run(plan, [{ type: 'pick', index: 1 }])).toEqual({ type: 'submit', answer: { kind: 'plan', approved: false } })
    expect(run(plan, [{ type: 'pick', index: 2 }, { type: 'text', text: 'use tabs' }, { type: 'choose' }])).toEqual({
      type: 'submit',
      answer: { kind: 'plan', approved: false, feedback: 'use tabs' },
    })
  })
})

import type { Dialog, DialogAnswer, DialogAnswerInput, DialogOption, DialogQuestion } from '../../src/contract/dialog.js'

/**
 * The pending-dialog picker as a pure reducer: the component only renders `PickerState` and
 * turns keys into `PickerInput`s. A question dialog walks its questions in order and submits
 * every answer at once; a plan dialog offers approve, reject, and reject with feedback.
 */

export interface PickerRow {
  label: string
  description?: string
  /** The free-text row: Enter opens a one-line editor instead of choosing. */
  isOther: boolean
}

export interface PickerState {
  questionIndex: number
  cursor: number
  /** Labels toggled in a multi-select question, in toggle order. */
  toggled: string[]
  typingOther: boolean
  otherText: string
  answers: DialogAnswer[]
}

export type PickerInput =
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'toggle' }
  | { type: 'choose' }
  | { type: 'pick'; index: number }
  | { type: 'text'; text: string }
  | { type: 'backspace' }
  | { type: 'escape' }

/** `submit`: answer the dialog; `dismiss`: Esc outside the free-text editor. */
export type PickerOutcome =
  | { type: 'pending'; state: PickerState }
  | { type: 'submit'; answer: DialogAnswerInput }
  | { type: 'dismiss' }

export const initialPickerState: PickerState = {
  questionIndex: 0,
  cursor: 0,
  toggled: [],
  typingOther: false,
  otherText: '',
  answers: [],
}

const planRows: PickerRow[] = [
  { label: 'Approve the plan', isOther: false },
  { label: 'Reject', isOther: false },
  { label: 'Reject with feedback…', isOther: true },
]

/** Every question of a dialog; a single-question dialog carries it in `prompt`/`options`. */
export function dialogQuestions(dialog: Dialog): DialogQuestion[] {
  if (dialog.questions !== undefined && dialog.questions.length > 0) return dialog.questions
  return [{ question: dialog.prompt, options: dialog.options, multiSelect: dialog.multiSelect }]
}

/** The rows of the current question: its options, then an "Other" row unless one is declared. */
export function pickerRows(dialog: Dialog, state: PickerState): PickerRow[] {
  if (dialog.kind === 'plan') return planRows
  const question = dialogQuestions(dialog)[state.questionIndex]
  const options: DialogOption[] = question?.options ?? []
  const rows = options.map((option) => ({
    label: option.label,
    ...(option.description === undefined ? {} : { description: option.description }),
    isOther: option.isOther === true,
  }))
  return rows.some((row) => row.isOther) ? rows : [...rows, { label: 'Other…', isOther: true }]
}

export function isMultiSelect(dialog: Dialog, state: PickerState): boolean {
  return dialog.kind === 'question' && dialogQuestions(dialog)[state.questionIndex]?.multiSelect === true
}

/** One step of the picker. Pure: the same dialog, state and input always give the same outcome. */
export function stepPicker(dialog: Dialog, state: PickerState, input: PickerInput): PickerOutcome {
  const rows = pickerRows(dialog, state)
  if (state.typingOther) return stepOtherEditor(dialog, state, input)
  switch (input.type) {
    case 'up':
      return pending({ ...state, cursor: (state.cursor - 1 + rows.length) % rows.length })
    case 'down':
      return pending({ ...state, cursor: (state.cursor + 1) % rows.length })
    case 'escape':
      return { type: 'dismiss' }
    case 'pick':
      if (input.index < 0 || input.index >= rows.length) return pending(state)
      return isMultiSelect(dialog, state) && rows[input.index]?.isOther !== true
        ? pending(toggle({ ...state, cursor: input.index }, rows))
        : stepPicker(dialog, { ...state, cursor: input.index }, { type: 'choose' })
    case 'toggle':
      if (!isMultiSelect(dialog, state)) return pending(state)
      return rows[state.cursor]?.isOther === true ? pending({ ...state, typingOther: true }) : pending(toggle(state, rows))
    case 'choose':
      return choose(dialog, state, rows)
    case 'text':
    case 'backspace':
      return pending(state)
  }
}

function stepOtherEditor(dialog: Dialog, state: PickerState, input: PickerInput): PickerOutcome {
  switch (input.type) {
    case 'text':
      return pending({ ...state, otherText: state.otherText + input.text })
    case 'backspace':
      return pending({ ...state, otherText: state.otherText.slice(0, -1) })
    case 'escape':
      return pending({ ...state, typingOther: false })
    case 'choose': {
      const otherText = state.otherText.trim()
      if (otherText === '' && state.toggled.length === 0) return pending(state)
      if (dialog.kind === 'plan') return { type: 'submit', answer: { kind: 'plan', approved: false, feedback: otherText } }
      return answerCurrent(dialog, state, state.toggled, otherText)
    }
    default:
      return pending(state)
  }
}

function choose(dialog: Dialog, state: PickerState, rows: PickerRow[]): PickerOutcome {
  const row = rows[state.cursor]
  if (row === undefined) return pending(state)
  if (row.isOther) return pending({ ...state, typingOther: true })
  if (dialog.kind === 'plan') return { type: 'submit', answer: { kind: 'plan', approved: state.cursor === 0 } }
  if (!isMultiSelect(dialog, state)) return answerCurrent(dialog, state, [row.label], '')
  const chosen = state.toggled.length > 0 ? state.toggled : [row.label]
  return answerCurrent(dialog, state, chosen, state.otherText.trim())
}

function answerCurrent(dialog: Dialog, state: PickerState, chosen: string[], otherText: string): PickerOutcome {
  const questions = dialogQuestions(dialog)
  const question = questions[state.questionIndex]
  if (question === undefined) return pending(state)
  const answer: DialogAnswer = { question: question.question, chosen, ...(otherText === '' ? {} : { otherText }) }
  const answers = [...state.answers, answer]
  if (state.questionIndex + 1 < questions.length) {
    return pending({ ...initialPickerState, questionIndex: state.questionIndex + 1, answers })
  }
  return { type: 'submit', answer: { kind: 'question', answers } }
}

function toggle(state: PickerState, rows: PickerRow[]): PickerState {
  const label = rows[state.cursor]?.label
  if (label === undefined) return state
  const toggled = state.toggled.includes(label) ? state.toggled.filter((l) => l !== label) : [...state.toggled, label]
  return { ...state, toggled }
}

function pending(state: PickerState): PickerOutcome {
  return { type: 'pending', state }
}

import { Box, Text, useInput } from 'ink'
import { useRef, useState } from 'react'
import type { Dialog } from '../../src/agents/runstate/dialog.js'
import type { DialogAnswerInput } from '../../src/agents/runstate/live.js'
import {
  dialogQuestions,
  initialPickerState,
  isMultiSelect,
  pickerRows,
  stepPicker,
} from './dialog-picker-state.js'
import type { PickerInput } from './dialog-picker-state.js'

interface Props {
  dialog: Dialog
  /** Called once with the complete answer (every question of the dialog). */
  onAnswer: (answer: DialogAnswerInput) => void
  /** Esc outside the free-text editor. */
  onDismiss: () => void
  /** Whether this picker takes keys. @default true */
  isActive?: boolean
}

/**
 * A pending agent dialog as a picker: ↑/↓ move, Enter chooses, Space toggles in a multi-select,
 * 1–9 pick directly, the "Other" row opens a one-line editor, Esc leaves it (or the picker).
 * The prompt (a question, or a whole plan) is printed in full, never cut.
 */
export function DialogPicker({ dialog, onAnswer, onDismiss, isActive = true }: Props) {
  const [state, setState] = useState(initialPickerState)
  // Keys can arrive faster than React re-renders; the ref is the state the next key sees.
  const latest = useRef(state)

  useInput(
    (input, key) => {
      const step = toPickerInput(input, key, latest.current.typingOther)
      if (step === undefined) return
      const outcome = stepPicker(dialog, latest.current, step)
      if (outcome.type === 'pending') {
        latest.current = outcome.state
        setState(outcome.state)
      }
      else if (outcome.type === 'submit') onAnswer(outcome.answer)
      else onDismiss()
    },
    { isActive: isActive && dialog.answerable },
  )

  const questions = dialogQuestions(dialog)
  const question = questions[state.questionIndex]
  const rows = pickerRows(dialog, state)
  const multi = isMultiSelect(dialog, state)
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {dialog.kind === 'plan' ? 'The agent proposes a plan' : 'The agent asks'}
        {questions.length > 1 ? ` (question ${state.questionIndex + 1} of ${questions.length})` : ''}
      </Text>
      {question?.header === undefined ? null : <Text dimColor>{question.header}</Text>}
      <Text>{dialog.kind === 'plan' ? dialog.prompt : (question?.question ?? dialog.prompt)}</Text>
      {dialog.answerable ? null : <Text color="red">This dialog can only be answered in the agent's own window.</Text>}
      {rows.map((row, index) => {
        const selected = index === state.cursor
        const mark = multi && !row.isOther ? (state.toggled.includes(row.label) ? '[x] ' : '[ ] ') : ''
        return (
          <Box key={row.label} flexDirection="column">
            <Text color={selected ? 'cyan' : undefined}>
              {selected ? '› ' : '  '}
              {index + 1}. {mark}
              {row.label}
              {row.isOther && state.typingOther ? (
                <Text>
                  {': '}
                  {state.otherText}
                  <Text inverse> </Text>
                </Text>
              ) : null}
            </Text>
            {row.description === undefined ? null : <Text dimColor>{'     '}{row.description}</Text>}
          </Box>
        )
      })}
      <Text dimColor>
        {state.typingOther
          ? 'type your answer · Enter send · Esc back'
          : `↑↓ move · Enter choose${multi ? ' · Space toggle' : ''} · 1-${Math.min(rows.length, 9)} pick · Esc close`}
      </Text>
    </Box>
  )
}

interface KeyLike {
  upArrow: boolean
  downArrow: boolean
  return: boolean
  escape: boolean
  backspace: boolean
  delete: boolean
  ctrl: boolean
  meta: boolean
  tab: boolean
}

function toPickerInput(input: string, key: KeyLike, typing: boolean): PickerInput | undefined {
  if (key.escape) return { type: 'escape' }
  if (key.return) return { type: 'choose' }
  if (key.upArrow) return { type: 'up' }
  if (key.downArrow) return { type: 'down' }
  if (key.backspace || key.delete) return { type: 'backspace' }
  if (key.ctrl || key.meta || key.tab) return undefined
  if (typing) return input === '' ? undefined : { type: 'text', text: input.replace(/[\r\n]+/g, ' ') }
  if (input === ' ') return { type: 'toggle' }
  if (/^[1-9]$/.test(input)) return { type: 'pick', index: Number(input) - 1 }
  return undefined
}

import { Box, Text, useStdout } from 'ink'
import type { Key } from 'ink'
import { useMemo, useRef, useState } from 'react'
import type { MutableRefObject } from 'react'
import type { Dialog, DialogAnswerInput } from '../../src/contract/dialog.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import {
  dialogQuestions,
  initialPickerState,
  isMultiSelect,
  pickerRows,
  stepPicker,
} from './dialog-picker-state.js'
import type { PickerInput } from './dialog-picker-state.js'
import { MarkdownView } from './markdown-view.js'
import { markdownLines, wrapLines } from './terminal-markdown.js'
import { useKeys } from './use-keys.js'

interface Props {
  dialog: Dialog
  /** Called once with the complete answer (every question of the dialog). */
  onAnswer: (answer: DialogAnswerInput) => void
  /** Esc outside the free-text editor. */
  onDismiss: () => void
  /** Whether this picker takes keys. @default true */
  isActive?: boolean
  /** Columns the picker may use, border included. @default the terminal's width */
  columns?: number
  /** Rows the picker may use, border included; a longer plan scrolls inside it. @default the terminal's height */
  rows?: number
  /**
   * When given, the picker does not listen to the terminal itself: it puts its key handler here
   * (on every render) and the owner forwards keys to it. A freshly mounted listener only starts in
   * an effect, after the picker is already on screen, so a key typed at once would be lost; an
   * owner that listens all along (as `<InkChat>` does) loses none.
   */
  keysRef?: MutableRefObject<KeyHandler | undefined>
}

/** What `useKeys` calls: one key, and whether it is part of a paste. */
export type KeyHandler = (input: string, key: Key, paste: boolean) => void

/** Rows the picker needs besides the plan: border, title, three choices, scroll line, key hint. */
const PLAN_CHROME_ROWS = 8
/**
 * Rows the chat keeps below the picker so the frame stays shorter than the screen (a taller one
 * makes Ink clear and repaint everything): the status line, wrapped to two rows on a narrow
 * terminal, the one-line note, and the row Ink leaves for the cursor, plus one spare.
 */
const BELOW_PICKER_ROWS = 5

/**
 * A pending agent dialog as a picker: ↑/↓ move, Enter chooses, Space toggles in a multi-select,
 * 1–9 pick directly, the "Other" row opens a one-line editor, Esc leaves it (or the picker).
 * A plan is rendered as markdown, wrapped to the picker's width; when it is taller than the
 * room left, it scrolls inside the picker (PgUp/PgDn, Home/End), never cut off.
 */
export function DialogPicker({ dialog, onAnswer, onDismiss, isActive = true, columns, rows, keysRef }: Props) {
  const { stdout } = useStdout()
  const [state, setState] = useState(initialPickerState)
  const [scroll, setScroll] = useState(0)
  // Keys can arrive faster than React re-renders; the refs are what the next key sees.
  const latest = useRef(state)
  const scrollRef = useRef(scroll)
  // Answered or dismissed: the rest of a key burst must not answer a second time.
  const finished = useRef(false)
  const width = Math.max(20, (columns ?? stdout.columns ?? 80) - 4)
  const height = rows ?? Math.max(PLAN_CHROME_ROWS + 4, (stdout.rows ?? 24) - BELOW_PICKER_ROWS)
  const planLines = useMemo(() => (dialog.kind === 'plan' ? wrapLines(markdownLines(dialog.prompt), width) : []), [dialog, width])
  const planRoom = Math.max(3, height - PLAN_CHROME_ROWS)
  const maxScroll = Math.max(0, planLines.length - planRoom)

  const scrollTo = (next: number): void => {
    const clamped = Math.max(0, Math.min(maxScroll, next))
    scrollRef.current = clamped
    setScroll(clamped)
  }

  const onKey: KeyHandler = (input, key, paste) => {
    if (finished.current) return
    if (dialog.kind === 'plan' && !latest.current.typingOther) {
      if (key.pageDown) return scrollTo(scrollRef.current + planRoom - 1)
      if (key.pageUp) return scrollTo(scrollRef.current - planRoom + 1)
      if (key.home) return scrollTo(0)
      if (key.end) return scrollTo(maxScroll)
    }
    const step = toPickerInput(input, key, latest.current.typingOther, paste)
    if (step === undefined) return
    const outcome = stepPicker(dialog, latest.current, step)
    if (outcome.type === 'pending') {
      latest.current = outcome.state
      setState(outcome.state)
      return
    }
    finished.current = true
    if (outcome.type === 'submit') onAnswer(outcome.answer)
    else onDismiss()
  }
  const takesKeys = isActive && dialog.answerable
  useKeys(onKey, { isActive: takesKeys && keysRef === undefined })
  if (keysRef !== undefined) keysRef.current = takesKeys ? onKey : undefined

  const questions = dialogQuestions(dialog)
  const question = questions[state.questionIndex]
  const rowsOfPicker = pickerRows(dialog, state)
  const multi = isMultiSelect(dialog, state)
  const shown = Math.min(scroll, maxScroll)
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1} {...(columns === undefined ? {} : { width: columns })}>
      <Text bold color="yellow">
        {dialog.kind === 'plan' ? 'The agent proposes a plan' : 'The agent asks'}
        {questions.length > 1 ? ` (question ${state.questionIndex + 1} of ${questions.length})` : ''}
      </Text>
      {question?.header === undefined || dialog.kind === 'plan' ? null : <Text dimColor>{terminalText(question.header, { singleLine: true })}</Text>}
      {dialog.kind === 'plan' ? <MarkdownView lines={planLines.slice(shown, shown + planRoom)} /> : <Text>{terminalText(question?.question ?? dialog.prompt)}</Text>}
      {maxScroll === 0 ? null : (
        <Text dimColor>
          lines {shown + 1}–{Math.min(planLines.length, shown + planRoom)} of {planLines.length} · PgUp/PgDn scroll
        </Text>
      )}
      {dialog.answerable ? null : <Text color="red">This dialog can only be answered in the agent's own window.</Text>}
      {rowsOfPicker.map((row, index) => {
        const selected = index === state.cursor
        const mark = multi && !row.isOther ? (state.toggled.includes(row.label) ? '[x] ' : '[ ] ') : ''
        return (
          <Box key={row.label} flexDirection="column">
            <Text color={selected ? 'cyan' : undefined}>
              {selected ? '› ' : '  '}
              {index + 1}. {mark}
              {terminalText(row.label, { singleLine: true })}
              {row.isOther && state.typingOther ? (
                <Text>
                  {': '}
                  {state.otherText}
                  <Text inverse> </Text>
                </Text>
              ) : null}
            </Text>
            {row.description === undefined ? null : <Text dimColor>{'     '}{terminalText(row.description)}</Text>}
          </Box>
        )
      })}
      <Text dimColor>
        {state.typingOther
          ? 'type your answer · Enter send · Esc back'
          : `↑↓ move · Enter choose${multi ? ' · Space toggle' : ''} · 1-${Math.min(rowsOfPicker.length, 9)} pick · Esc close`}
      </Text>
    </Box>
  )
}

interface KeyLike {
  pageUp: boolean
  pageDown: boolean
  home: boolean
  end: boolean
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

function toPickerInput(input: string, key: KeyLike, typing: boolean, paste: boolean): PickerInput | undefined {
  if (paste) return typing ? { type: 'text', text: input.replace(/[\r\n]+/g, ' ') } : undefined
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

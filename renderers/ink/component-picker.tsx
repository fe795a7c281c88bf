import { Box, Text } from 'ink'
import { useRef, useState } from 'react'
import type { MutableRefObject } from 'react'
import { terminalText } from '../../src/contract/terminal-text.js'
import type { KeyHandler } from './dialog-picker.js'
import type { ComponentChoice, PendingComponent } from '../../src/view/pending-component.js'
import { useKeys } from './use-keys.js'

interface Props {
  pending: PendingComponent
  /** Called once, with the chosen row. */
  onChoose: (choice: ComponentChoice) => void
  onDismiss: () => void
  /** As `<DialogPicker keysRef>`: the owner forwards keys, so none typed at once is lost. */
  keysRef?: MutableRefObject<KeyHandler | undefined>
}

/**
 * A choice list or a button group as a picker: ↑/↓ move, 1–9 pick, Enter chooses, Esc closes it
 * (Tab reopens it). Unlike an agent dialog there is no "Other" row: a component offers only its
 * own choices, and the composer is there for anything else.
 */
export function ComponentPicker({ pending, onChoose, onDismiss, keysRef }: Props) {
  const [cursor, setCursor] = useState(0)
  const cursorRef = useRef(cursor)
  const done = useRef(false)
  const count = pending.choices.length
  const move = (next: number): void => {
    cursorRef.current = next
    setCursor(next)
  }
  const choose = (index: number): void => {
    const choice = pending.choices[index]
    if (choice === undefined || done.current) return
    done.current = true
    onChoose(choice)
  }
  const onKey: KeyHandler = (input, key, paste) => {
    if (paste || done.current) return
    if (key.escape) return onDismiss()
    if (key.upArrow) return move((cursorRef.current - 1 + count) % count)
    if (key.downArrow) return move((cursorRef.current + 1) % count)
    if (key.return) return choose(cursorRef.current)
    if (/^[1-9]$/.test(input)) choose(Number(input) - 1)
  }
  useKeys(onKey, { isActive: keysRef === undefined })
  if (keysRef !== undefined) keysRef.current = onKey
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{terminalText(pending.prompt, { singleLine: true })}</Text>
      {pending.choices.map((choice, index) => (
        <Text key={choice.value} {...(index === cursor ? { color: 'cyan' } : {})}>
          {index === cursor ? '› ' : '  '}{index + 1}. {terminalText(choice.label, { singleLine: true })}
          {choice.description === undefined ? null : <Text dimColor> — {terminalText(choice.description, { singleLine: true })}</Text>}
        </Text>
      ))}
      <Text dimColor>↑/↓ move · Enter choose · 1–{Math.min(count, 9)} pick · Esc close</Text>
    </Box>
  )
}

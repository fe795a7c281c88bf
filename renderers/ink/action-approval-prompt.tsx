import { Box, Text } from 'ink'
import { useRef, useState } from 'react'
import type { MutableRefObject } from 'react'
import { terminalText } from '../../src/contract/terminal-text.js'
import { approvalOutcomeOf, approvalStateOf } from '../../src/view/approval-card.js'
import type { ApprovalCardProps } from '../../src/view/approval-card.js'
import type { KeyHandler } from './dialog-picker.js'
import { useKeys } from './use-keys.js'

/** chatrail/view's `ApprovalCardProps` (approve and reject called once per prompt; no keys on an expired proposal), and: */
interface Props extends ApprovalCardProps {
  /** As `<DialogPicker keysRef>`: the owner forwards keys, so none typed at once is lost. */
  keysRef?: MutableRefObject<KeyHandler | undefined>
}

/** How many lines of the action's input the prompt shows (the rest is counted, not printed). */
const INPUT_LINES = 8

/**
 * A proposed action waiting for the user, in the terminal (the Ink counterpart of React's
 * `<ActionApprovalCard>`, docs/actions.md): its name and input, then `y` / Enter approves and `n`
 * rejects while it is pending and not expired; afterwards what was decided. One decision per
 * prompt: keys after the first are ignored until the answer comes back (a failed call offers the
 * keys again, with its error). The input is the model's or the app's JSON, shown with control
 * characters as symbols, so it cannot send the terminal commands.
 */
export function ActionApprovalPrompt({ record, onApprove, onReject, now = Date.now, keysRef }: Props) {
  const [busy, setBusy] = useState(false)
  const busyRef = useRef(false)
  const [failure, setFailure] = useState<string | undefined>()
  const state = approvalStateOf(record, now())
  const decide = (run: () => Promise<unknown>): void => {
    if (busyRef.current) return
    busyRef.current = true
    setBusy(true)
    setFailure(undefined)
    const settle = (error?: unknown): void => {
      busyRef.current = false
      setBusy(false)
      if (error !== undefined) setFailure(error instanceof Error ? error.message : String(error))
    }
    run().then(() => settle(), (error: unknown) => settle(error ?? 'failed'))
  }
  const onKey: KeyHandler = (input, key, paste) => {
    if (paste || state !== 'pending') return
    if (key.return || input === 'y' || input === 'Y') return decide(() => onApprove(record.token))
    if (input === 'n' || input === 'N') decide(() => onReject(record.token))
  }
  useKeys(onKey, { isActive: keysRef === undefined })
  if (keysRef !== undefined) keysRef.current = onKey
  const lines = terminalText(JSON.stringify(record.action.input, null, 2) ?? 'undefined').split('\n')
  // the outcome's words are the view's; the reason is the app's or the model's text, so shown as symbols-safe text
  const outcome = approvalOutcomeOf({ ...record, ...(record.reason === undefined ? {} : { reason: terminalText(record.reason, { singleLine: true }) }) }, state)
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={state === 'pending' ? 'yellow' : 'gray'} paddingX={1}>
      <Text bold>Confirm {terminalText(record.action.name, { singleLine: true })}</Text>
      {lines.slice(0, INPUT_LINES).map((line, index) => <Text key={index} dimColor>{line}</Text>)}
      {lines.length > INPUT_LINES ? <Text dimColor>… {lines.length - INPUT_LINES} more lines</Text> : null}
      {state === 'pending' ? (
        <Text {...(busy ? { dimColor: true } : { color: 'yellow' })}>{busy ? 'Sending your answer…' : 'y / Enter approve · n reject'}</Text>
      ) : (
        <Text color={state === 'approved' && record.outcome?.status !== 'error' ? 'green' : state === 'approved' || state === 'rejected' || state === 'expired' ? 'red' : 'yellow'}>
          {outcome}
        </Text>
      )}
      {failure === undefined ? null : <Text color="red">✗ {terminalText(failure, { singleLine: true })}</Text>}
    </Box>
  )
}

import { Box, Text } from 'ink'
import { useEffect, useRef, useState } from 'react'
import type { MutableRefObject } from 'react'
import { terminalText } from '../../src/contract/terminal-text.js'
import { approvalStateOf } from '../../src/view/approval-card.js'
import { approvalLabels } from '../../src/view/approval-labels.js'
import type { ApprovalRecord, ApprovalSource } from '../../src/view/approval-source.js'
import { pendingApprovalOf, watchApproval } from '../../src/view/bound-approval.js'
import type { PendingApproval } from '../../src/view/bound-approval.js'
import { ActionApprovalPrompt } from './action-approval-prompt.js'
import type { KeyHandler } from './dialog-picker.js'
import { useKeys } from './use-keys.js'

/**
 * An `approval-request` component in the terminal, bound to its confirmation record: the record
 * is read from the source by the component's token and drawn by `<ActionApprovalPrompt>`; `y`
 * and `n` decide through the source (a coordinator, or the server's endpoints), and the record it
 * answers is what the prompt shows next. Esc closes the prompt without deciding. Nothing here
 * marks the request answered: the record is the only truth, so a second prompt for the same token
 * (another terminal, a restart) shows the decision, and a second approval executes nothing.
 */

export { pendingApprovalOf }
export type { PendingApproval }

interface Props {
  source: ApprovalSource
  token: string
  title: string
  /** Esc: close without deciding. */
  onDismiss?: () => void
  /** Whether the prompt waits for `y`/`n` (a pending, unexpired record): the owner gives it the keys only then. */
  onWaiting?: (waiting: boolean) => void
  /** Milliseconds since the epoch (an expired proposal offers no keys). Default `Date.now`. */
  now?: () => number
  /** As `<DialogPicker keysRef>`: the owner forwards keys. */
  keysRef?: MutableRefObject<KeyHandler | undefined>
}

export function BoundApprovalPrompt({ source, token, title, onDismiss, onWaiting, now = Date.now, keysRef }: Props) {
  const [record, setRecord] = useState<ApprovalRecord | undefined>()
  const [failure, setFailure] = useState<string | undefined>()
  const inner = useRef<KeyHandler | undefined>(undefined)
  // the record as the source knows it (chatrail/view `watchApproval`)
  useEffect(() => watchApproval(source, token, (bound) => {
    if (bound.state === 'ready') setRecord(bound.record)
    else if (bound.state === 'missing') setFailure(approvalLabels.unknownProposal)
    else if (bound.state === 'failed') setFailure(bound.message)
  }), [source, token])
  const waiting = record !== undefined && approvalStateOf(record, now()) === 'pending'
  useEffect(() => onWaiting?.(waiting), [onWaiting, waiting])
  const onKey: KeyHandler = (input, key, paste) => {
    if (!paste && key.escape) return onDismiss?.()
    inner.current?.(input, key, paste)
  }
  useKeys(onKey, { isActive: keysRef === undefined })
  if (keysRef !== undefined) keysRef.current = onKey
  return (
    <Box flexDirection="column">
      <Text bold>{terminalText(title, { singleLine: true })}</Text>
      {record === undefined ? (
        <Text {...(failure === undefined ? { dimColor: true } : { color: 'red' })}>{failure ?? approvalLabels.loadingProposal}</Text>
      ) : (
        <ActionApprovalPrompt
          record={record}
          keysRef={inner}
          now={now}
          onApprove={async (t) => setRecord(await source.approve(t))}
          onReject={async (t, reason) => setRecord(await source.reject(t, reason))}
        />
      )}
    </Box>
  )
}

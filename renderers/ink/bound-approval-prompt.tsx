import { Box, Text } from 'ink'
import { useEffect, useRef, useState } from 'react'
import type { MutableRefObject } from 'react'
import { isComponentPart } from '../../src/contract/component-chunk.js'
import type { Message } from '../../src/contract/message.js'
import { terminalText } from '../../src/contract/terminal-text.js'
import type { ApprovalRecord } from '../react/action-approval-card.js'
import type { ApprovalSource } from '../react/approval-source.js'
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

/** The approval request of the last answer, while it is the last message. */
export interface PendingApproval {
  /** `<messageId>:<instanceId>`. */
  readonly key: string
  readonly token: string
  readonly title: string
}

export function pendingApprovalOf(messages: readonly Message[]): PendingApproval | undefined {
  const last = messages.at(-1)
  if (last === undefined || last.role !== 'assistant' || last.status !== 'complete') return undefined
  for (const part of last.parts ?? []) {
    if (!isComponentPart(part) || part.componentKey !== 'approval-request') continue
    const props = part.props as { token?: unknown; title?: unknown } | null
    if (typeof props?.token === 'string') return { key: `${last.id}:${part.instanceId}`, token: props.token, title: typeof props.title === 'string' ? props.title : 'Approval' }
  }
  return undefined
}

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
  useEffect(() => {
    let live = true
    source.read(token).then(
      (found) => {
        if (!live) return
        if (found === undefined) setFailure('This proposal is not known here.')
        else setRecord(found)
      },
      (error: unknown) => { if (live) setFailure(error instanceof Error ? error.message : String(error)) },
    )
    const stop = source.subscribe?.((changed) => { if (live && changed.token === token) setRecord(changed) })
    return () => {
      live = false
      stop?.()
    }
  }, [source, token])
  const waiting = record?.status === 'pending' && now() < record.expiresAt
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
        <Text {...(failure === undefined ? { dimColor: true } : { color: 'red' })}>{failure ?? 'Loading the proposal…'}</Text>
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

import { useId, useLayoutEffect, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import type { ToolCall } from '../../src/contract/message.js'
import { extrasLabels } from '../../src/view/extras-labels.js'
import { useLabels } from './extras-context.js'
import { TruncatedOutput } from './truncated-output.js'
import { formatToolArgs } from '../../src/view/tool-output.js'

/** Approve or deny a call waiting in `requires_confirmation` (the controller's `approve` / `deny`). */
export interface ToolDecisions {
  approve: (toolCallId: string) => Promise<void>
  deny: (toolCallId: string, reason?: string) => Promise<void>
}

/** `onDecided(true)` as a decision starts, `onDecided(false)` if it failed (the buttons stay). */
function ApprovalButtons({ call, decisions, onDecided }: { call: ToolCall; decisions: ToolDecisions; onDecided: (pending: boolean) => void }): ReactNode {
  // A ref, not state: a double click lands twice before React re-renders the disabled buttons.
  const decided = useRef(false)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | undefined>()
  const words = useLabels(extrasLabels)
  const decide = (run: () => Promise<void>): void => {
    if (decided.current) return
    decided.current = true
    setBusy(true)
    onDecided(true)
    // Settled and still asked (a failure, or a call the controller would not settle): the buttons come back.
    run().then(
      () => { decided.current = false; setBusy(false) },
      (error: unknown) => {
        decided.current = false
        onDecided(false)
        setBusy(false)
        setFailure(error instanceof Error ? error.message : String(error))
      },
    )
  }
  return (
    <>
      <div data-chatrail-dialog-buttons="">
        <button type="button" data-chatrail-tool-approve="" disabled={busy} onClick={() => decide(() => decisions.approve(call.id))}>{words.approve}</button>
        <button type="button" data-chatrail-tool-deny="" disabled={busy} onClick={() => decide(() => decisions.deny(call.id))}>{words.deny}</button>
      </div>
      {failure !== undefined && <p role="alert" data-chatrail-tool-error="">{failure}</p>}
    </>
  )
}

/**
 * One tool call as a card (`section[data-chatrail-tool-card][data-chatrail-tool-status]`): its
 * name and status, and behind a disclosure button its arguments (formatted JSON) and its result or
 * error, each cut at 20 lines / 2,000 characters with "Show more". Open while the call runs, fails
 * or waits for approval, closed once complete, unless the user toggled it. A call in
 * `requires_confirmation` is always open, with Approve and Deny (given `decisions`); after either,
 * the focus moves to the card's disclosure button, since the approval buttons leave. The status word is a polite live region.
 */
export function ToolCallCard({ call, decisions }: { call: ToolCall; decisions: ToolDecisions | undefined }): ReactNode {
  const [toggled, setToggled] = useState<boolean | undefined>()
  const toggle = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  const bodyId = useId()
  const words = useLabels(extrasLabels)
  const asking = call.status === 'requires_confirmation'
  const open = asking || (toggled ?? call.status !== 'complete')
  useLayoutEffect(() => {
    if (asking || !refocus.current) return
    refocus.current = false
    toggle.current?.focus()
  }, [asking])
  return (
    <section data-chatrail-tool-card="" data-chatrail-tool-status={call.status} aria-label={words.toolCard(call.name)}>
      <div data-chatrail-tool-header="">
        {asking
          ? <span data-chatrail-tool-name="">{call.name}</span>
          : (
            <button ref={toggle} type="button" data-chatrail-tool-toggle="" aria-expanded={open} aria-controls={bodyId} onClick={() => setToggled(!open)}>
              <span data-chatrail-tool-name="">{call.name}</span>
            </button>
          )}
        <span data-chatrail-tool-state="" aria-live="polite">{words.toolStatus(call.status)}</span>
      </div>
      <div id={bodyId} data-chatrail-tool-body="" hidden={!open}>
        <TruncatedOutput label={words.toolArguments} text={formatToolArgs(call.args)} />
        {call.result !== undefined && call.result !== '' && <TruncatedOutput label={words.toolResult} text={call.result} />}
        {call.error !== undefined && <TruncatedOutput label={words.toolError} text={call.error} />}
        {asking && (decisions === undefined
          ? <p data-chatrail-tool-waiting="">{words.waitingForApproval}</p>
          : <ApprovalButtons call={call} decisions={decisions} onDecided={(pending) => { refocus.current = pending }} />)}
      </div>
    </section>
  )
}

import { useState } from 'react'
import type { ReactNode } from 'react'
import type { JsonObject, TurnTrace } from '../../src/conversation/index.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/**
 * Pure: the failure to report, if any: the chat's error (a failed turn), else a last turn whose
 * agent failed and the definition's fallback answered instead (its trace has the error's class;
 * `MissingAdapter` is a chat without an agent, not a failure).
 */
export function failureOf(error: Error | null, traces: readonly TurnTrace[]): { key: object; message: string } | undefined {
  if (error !== null) return { key: error, message: error.message }
  const last = traces.at(-1)
  if (last?.kind === 'fallback' && last.errorClass !== undefined && last.errorClass !== 'MissingAdapter') {
    return { key: last, message: 'The agent failed; the answer above is the fallback.' }
  }
  return undefined
}

/**
 * An agent failure as a banner (in the message UI chunk; `<ErrorBanner>` resolves the chat and
 * shows the bare message until the chunk is in) (`div[role=alert][data-chatrail-error]`): the message, its own
 * "Try again" (retries the turn) and a dismiss button. A new failure shows again.
 */
export function ErrorBannerContent({ chat }: { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const { error, traces, retry, status } = chat
  const [dismissed, setDismissed] = useState<object | null>(null)
  const failure = failureOf(error, traces)
  if (failure === undefined || failure.key === dismissed || status === 'streaming') return null
  return (
    <div role="alert" data-chatrail-error="">
      <p data-chatrail-error-message="">{failure.message}</p>
      <button type="button" data-chatrail-error-retry="" onClick={() => { void retry() }}>Try again</button>
      <button type="button" data-chatrail-error-dismiss="" data-chatrail-icon-button="" aria-label="Dismiss" title="Dismiss" onClick={() => setDismissed(failure.key)}>×</button>
    </div>
  )
}

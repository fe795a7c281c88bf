import { useState } from 'react'
import type { ReactNode } from 'react'
import type { JsonObject, TurnTrace } from '../../src/conversation/index.js'
import { agentFailedIn } from './agent-failure.js'
import { focusComposer } from './focus-composer.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

/** A failure in plain words: what happened, its cause when known, and what to do. */
export interface Failure {
  key: object
  message: string
  cause?: string
  hint: string
}

/**
 * Pure: the failure to report, if any: the chat's error (a failed turn), else a last turn whose
 * agent failed and the definition's fallback answered instead (`agentFailedIn`).
 */
export function failureOf(error: Error | null, traces: readonly TurnTrace[]): Failure | undefined {
  if (error !== null) {
    const { code, hint } = error as Error & { code?: unknown; hint?: unknown }
    const cause = typeof code === 'string' && code !== '' && code !== error.message ? `${error.message} (${code})` : error.message
    return {
      key: error,
      message: 'The reply failed.',
      ...(cause === '' ? {} : { cause }),
      hint: typeof hint === 'string' && hint !== '' ? hint : 'Retry; if it keeps failing, rephrase your message or start over.',
    }
  }
  const last = traces.at(-1)
  if (last !== undefined && agentFailedIn(last)) {
    return { key: last, message: 'The agent could not answer, so the answer above is the fallback.', cause: `The agent failed with ${last.errorClass ?? 'an error'}.`, hint: 'Retry to ask the agent once more.' }
  }
  return undefined
}

/**
 * An agent failure as a banner (in the message UI chunk; `<ErrorBanner>` resolves the chat and
 * shows the bare message until the chunk is in) (`div[role=alert][data-chatrail-error]`): the message,
 * Retry (the chat's one way to ask again after a failure: the failed reply offers no Regenerate;
 * the focus goes to the composer, as the banner leaves while the turn runs) and a dismiss button.
 * A new failure shows again.
 */
export function ErrorBannerContent({ chat }: { chat: UseChatSessionReturn<JsonObject> }): ReactNode {
  const { error, traces, retry, status } = chat
  const [dismissed, setDismissed] = useState<object | null>(null)
  const failure = failureOf(error, traces)
  if (failure === undefined || failure.key === dismissed || status === 'streaming') return null
  return (
    <div role="alert" data-chatrail-error="">
      <p data-chatrail-error-message=""><strong>{failure.message}</strong>{failure.cause !== undefined && <> <span data-chatrail-error-cause="">{failure.cause}</span></>}</p>
      <p data-chatrail-error-hint="">{failure.hint}</p>
      <button type="button" data-chatrail-error-retry="" onClick={(event) => { focusComposer(event.currentTarget); void retry() }}>Retry</button>
      <button type="button" data-chatrail-error-dismiss="" data-chatrail-icon-button="" aria-label="Dismiss" title="Dismiss" onClick={() => setDismissed(failure.key)}>×</button>
    </div>
  )
}

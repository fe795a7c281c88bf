import { useState } from 'react'
import type { ReactNode } from 'react'
import type { JsonObject, TurnTrace } from '../../src/conversation/index.js'
import type { agentFailedIn } from '../../src/view/agent-failure.js'
import { focusComposer } from './focus-composer.js'
import { useLabels, useMessageUIKit } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import type { MessageLabels } from '../../src/view/message-labels.js'
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
 * agent failed and the definition's fallback answered instead (`failedIn`: agent-failure.ts's
 * `agentFailedIn`, handed in as the entry's, message-ui-context.ts). `words`: the labels (default English).
 */
export function failureOf(error: Error | null, traces: readonly TurnTrace[], failedIn: typeof agentFailedIn, words: MessageLabels = messageLabels): Failure | undefined {
  if (error !== null) {
    const { code, hint } = error as Error & { code?: unknown; hint?: unknown }
    const cause = typeof code === 'string' && code !== '' && code !== error.message ? `${error.message} (${code})` : error.message
    return {
      key: error,
      message: words.replyFailed,
      ...(cause === '' ? {} : { cause }),
      hint: typeof hint === 'string' && hint !== '' ? hint : words.replyFailedHint,
    }
  }
  const last = traces.at(-1)
  if (last !== undefined && failedIn(last)) {
    return { key: last, message: words.agentFellBack, cause: words.agentFailedWith(last.errorClass), hint: words.agentRetryHint }
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
  const words = useLabels(messageLabels)
  const { agentFailedIn } = useMessageUIKit()
  const failure = failureOf(error, traces, agentFailedIn, words)
  if (failure === undefined || failure.key === dismissed || status === 'streaming') return null
  return (
    <div role="alert" data-chatrail-error="">
      <p data-chatrail-error-message=""><strong>{failure.message}</strong>{failure.cause !== undefined && <> <span data-chatrail-error-cause="">{failure.cause}</span></>}</p>
      <p data-chatrail-error-hint="">{failure.hint}</p>
      <button type="button" data-chatrail-error-retry="" onClick={(event) => { focusComposer(event.currentTarget); void retry() }}>{words.retry}</button>
      <button type="button" data-chatrail-error-dismiss="" data-chatrail-icon-button="" aria-label={words.dismiss} title={words.dismiss} onClick={() => setDismissed(failure.key)}>×</button>
    </div>
  )
}

import { useState } from 'react'
import type { ReactNode } from 'react'
import type { JsonObject } from '../../src/conversation/index.js'
import { failureOf } from '../../src/view/failure.js'
import type { Failure } from '../../src/view/failure.js'
import { focusComposer } from './focus-composer.js'
import { agentFailedIn } from '../../src/view/agent-failure.js'
import { useLabels } from './message-ui-context.js'
import { messageLabels } from '../../src/view/message-labels.js'
import type { UseChatSessionReturn } from './use-chat-session.js'

export { failureOf }
export type { Failure }

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
